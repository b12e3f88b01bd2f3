import { AppError } from '../../shared/app-error';
import { assertChannelUrl, type AddressAllowance } from '../channel-url';
import type { ChannelConfig } from './notifier';

const EMAIL = /^[^\s@<>(),;:"\\]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;
/** E.164: a plus, a country code not starting with 0, at most 15 digits in all. */
const E164 = /^\+[1-9]\d{6,14}$/;
/** RFC 9110 field-name token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;
/** Headers the transport owns: a channel may not forge them. Host is the spec's own code. */
const TRANSPORT_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'content-type']);

/**
 * What each reason a config field is refused for says to a person (the console shows the message at
 * the field; `data.reason` keeps the code for programs).
 */
const REASON_WORDS: Readonly<Record<string, string>> = {
  required: 'required',
  reservedHeader: 'a header the service sets itself; leave it out',
  badHeaderName: "not a header name (letters, digits and !#$%&'*+-.^_`|~ only)",
  badHeaderValue: 'a header value cannot contain a line break',
  notAnEmailAddress: 'not an e-mail address',
  notE164: 'not a phone number in E.164 form, such as +4930123456',
  badToken: 'not a valid token (copy it whole, without spaces)',
  notAnApiKey: 'not a valid API key (copy it whole, without spaces)',
  notAnAppToken: 'not an application token (30 letters and digits)',
  notAUserKey: 'not a user or group key (30 letters and digits)',
  notAUserId: 'not the id of a user',
  notATopic: 'not a topic name (letters, digits, - and _, at most 64)',
  notAThreadId: 'not a topic (thread) id: a whole number',
  notARoutingKey: 'not an integration (routing) key: 32 letters and digits',
  notARoomId: 'not a room id such as !abc:example.org',
  notAName: 'not a name the service takes',
  notAChatId: "not a chat id: a number, or a public channel's @username",
  notAChannelName: 'not a channel name',
  notABotToken: 'not a bot token such as 123456789:AA...',
};

/** The words for a reason; `notAllowedFor:<type>` names the channel type that has no such field. */
function wordsFor(reason: string): string {
  if (reason.startsWith('notAllowedFor:')) return `not a field of a ${reason.slice('notAllowedFor:'.length)} channel`;
  return REASON_WORDS[reason] ?? reason;
}

/** The spec's 400 for a config field, naming it and why (the reason's code in `data.reason`, its words in the message). */
export const invalid = (field: string, reason: string) =>
  new AppError('invalidRequestBody', { field, reason }, `Invalid ${field}: ${wordsFor(reason)}`);

/** The URL a channel posts to, required, judged by the channel URL rule. */
export function postedUrl(config: ChannelConfig, allowsPrivate?: AddressAllowance): string {
  if (config.url === undefined) throw invalid('config.url', 'required');
  return assertChannelUrl('config.url', config.url, allowsPrivate);
}

/** E-mail addresses: at least one, well formed, lowercased and de-duplicated. */
export function addresses(values: readonly string[] | undefined): string[] {
  if (!values || values.length === 0) throw invalid('config.recipients', 'required');
  const normalized = values.map((value) => value.trim().toLowerCase());
  normalized.forEach((value, i) => {
    if (!EMAIL.test(value)) throw invalid(`config.recipients.${i}`, 'notAnEmailAddress');
  });
  return [...new Set(normalized)];
}

/** Phone numbers: at least one, E.164, de-duplicated. */
export function phoneNumbers(values: readonly string[] | undefined): string[] {
  if (!values || values.length === 0) throw invalid('config.phoneNumbers', 'required');
  values.forEach((value, i) => {
    if (!E164.test(value)) throw invalid(`config.phoneNumbers.${i}`, 'notE164');
  });
  return [...new Set(values)];
}

/** Request headers: no Host, token names, none the transport owns, no line breaks in values. */
export function headers(values: Readonly<Record<string, string>>): Record<string, string> {
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

/**
 * The URL a channel posts to (its rule: postedUrl), declared once for every type taking it; each type
 * adds its mark (a generic webhook's is a target, a chat service's incoming-webhook URL a secret).
 */
export const URL_FIELD = {
  name: 'url',
  help: 'The URL posted to (http or https, a public host)',
  input: { kind: 'string', max: 2048 },
  url: true,
  recipient: true,
} as const;

/** The text put before a chat message, declared once for every type taking it. */
export const MESSAGE_PREFIX_FIELD = {
  name: 'messagePrefix',
  mark: 'plain',
  label: 'Message prefix',
  help: 'Text put before every message (message content: never judged as a URL)',
  input: { kind: 'string', max: 500, nullable: true },
} as const;

/** The fields every chat service has: its incoming-webhook URL (a secret: whoever has it can post) and a prefix. */
export const CHAT_FIELDS = [{ ...URL_FIELD, mark: 'secret', label: 'Incoming-webhook URL' }, MESSAGE_PREFIX_FIELD] as const;

/** A chat service's config: its URL judged, the prefix kept (null when none). */
export const chatConfig = (config: ChannelConfig, allowsPrivate?: AddressAllowance): ChannelConfig => ({
  url: postedUrl(config, allowsPrivate),
  messagePrefix: config.messagePrefix ?? null,
});

/** An API key sent with every request (Opsgenie's, a Zulip bot's), declared once for every type taking it; each type checks its shape. */
export const API_KEY_FIELD = {
  name: 'apiKey',
  mark: 'secret',
  label: 'API key',
  help: 'The API key sent with every request: whoever has it can post',
  input: { kind: 'string', max: 200 },
} as const;

/** A path under a server's URL, which may have a path of its own (a server behind a proxy); its query kept. */
export function serverPath(server: string, path: string): string {
  const url = new URL(server);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path}`;
  return url.href;
}
