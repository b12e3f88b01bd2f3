import { AppError } from '../shared/app-error';
import { assertChannelUrl, type AddressAllowance } from './channel-url';

export const CHANNEL_TYPES = ['webhook', 'email', 'sms', 'slack', 'teams', 'discord'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
/** Chat services posted to at their incoming-webhook URL, each with its own body (`chatPayload`). */
export const CHAT_TYPES = ['slack', 'teams', 'discord'] as const satisfies readonly ChannelType[];
export type ChatType = (typeof CHAT_TYPES)[number];
export const isChatType = (type: ChannelType): type is ChatType => (CHAT_TYPES as readonly ChannelType[]).includes(type);

/**
 * What a channel sends to. Per type: webhook {url, headers}; email {recipients}; sms {phoneNumbers};
 * slack, teams, discord {url (their incoming-webhook URL), messagePrefix}. messagePrefix is message
 * content: it is never judged as a URL.
 */
export interface ChannelConfig {
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly recipients?: readonly string[];
  readonly phoneNumbers?: readonly string[];
  readonly messagePrefix?: string | null;
}

const FIELDS_OF: Record<ChannelType, readonly (keyof ChannelConfig)[]> = {
  webhook: ['url', 'headers'],
  email: ['recipients'],
  sms: ['phoneNumbers'],
  slack: ['url', 'messagePrefix'],
  teams: ['url', 'messagePrefix'],
  discord: ['url', 'messagePrefix'],
};

const EMAIL = /^[^\s@<>(),;:"\\]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;
/** E.164: a plus, a country code not starting with 0, at most 15 digits in all. */
const E164 = /^\+[1-9]\d{6,14}$/;
/** RFC 9110 field-name token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;
/** Headers the transport owns: a channel may not forge them. Host is the spec's own code. */
const TRANSPORT_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'content-type']);

const invalid = (field: string, reason: string) => new AppError('invalidRequestBody', { field, reason }, `Invalid ${field} (${reason})`);

/**
 * The config as stored, for a channel of `type`: fields of another type refused, URLs judged by
 * the channel URL rule, headers without Host, addresses and numbers well formed and de-duplicated.
 */
export function normalizeChannelConfig(type: ChannelType, config: ChannelConfig, allowsPrivate?: AddressAllowance): ChannelConfig {
  const allowed = FIELDS_OF[type];
  for (const key of Object.keys(config) as (keyof ChannelConfig)[]) {
    if (config[key] !== undefined && !allowed.includes(key)) throw invalid(`config.${key}`, `notAllowedFor:${type}`);
  }
  if (type === 'email') return { recipients: addresses(config.recipients) };
  if (type === 'sms') return { phoneNumbers: phoneNumbers(config.phoneNumbers) };
  if (config.url === undefined) throw invalid('config.url', 'required');
  const url = assertChannelUrl('config.url', config.url, allowsPrivate);
  if (type === 'webhook') return { url, headers: headers(config.headers ?? {}) };
  return { url, messagePrefix: config.messagePrefix ?? null };
}

/** Who a channel reaches, comparable across channels of one type: URLs, lowercased addresses, numbers. */
export function recipientsOf(config: ChannelConfig): string[] {
  if (config.recipients) return [...config.recipients];
  if (config.phoneNumbers) return [...config.phoneNumbers];
  return config.url ? [config.url] : [];
}

function addresses(values: readonly string[] | undefined): string[] {
  if (!values || values.length === 0) throw invalid('config.recipients', 'required');
  const normalized = values.map((value) => value.trim().toLowerCase());
  normalized.forEach((value, i) => {
    if (!EMAIL.test(value)) throw invalid(`config.recipients.${i}`, 'notAnEmailAddress');
  });
  return [...new Set(normalized)];
}

function phoneNumbers(values: readonly string[] | undefined): string[] {
  if (!values || values.length === 0) throw invalid('config.phoneNumbers', 'required');
  values.forEach((value, i) => {
    if (!E164.test(value)) throw invalid(`config.phoneNumbers.${i}`, 'notE164');
  });
  return [...new Set(values)];
}

function headers(values: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    const lower = name.toLowerCase();
    if (lower === 'host') throw new AppError('webhookHostHeaderForbidden', { header: name });
    if (!HEADER_NAME.test(name)) throw invalid(`config.headers.${name}`, 'badHeaderName');
    if (TRANSPORT_HEADERS.has(lower) || lower.startsWith('x-webhook-')) throw invalid(`config.headers.${name}`, 'reservedHeader');
    if (/[\r\n\u0000]/.test(value)) throw invalid(`config.headers.${name}`, 'badHeaderValue');
    out[name] = value;
  }
  return out;
}
