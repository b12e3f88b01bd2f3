import { discord } from './discord';
import { email } from './email';
import { matrix } from './matrix';
import { googleChat } from './google-chat';
import { gotify } from './gotify';
import { mattermost } from './mattermost';
import { ntfy } from './ntfy';
import { opsgenie } from './opsgenie';
import { pagerduty } from './pagerduty';
import { pushover } from './pushover';
import { chatParts, type NotificationMessage } from '../message-parts';
import type { ChannelConfig, ChatParts, NotifierDescriptor, PostRequest, Transport } from './notifier';
import { slack } from './slack';
import { sms } from './sms';
import { teams } from './teams';
import { teamsWorkflows } from './teams-workflows';
import { telegram } from './telegram';
import { voice } from './voice';
import { webhook } from './webhook';
import { webPush } from './web-push';
import { zulip } from './zulip';

/** THE list of notification channel types, one descriptor file each; its order is the API's. */
export const NOTIFIERS = [
  webhook,
  email,
  sms,
  slack,
  teams,
  discord,
  ntfy,
  pagerduty,
  telegram,
  teamsWorkflows,
  pushover,
  matrix,
  voice,
  opsgenie,
  googleChat,
  mattermost,
  gotify,
  zulip,
  webPush,
] as const;

type Notifiers = typeof NOTIFIERS;

/** The tuple of the descriptors' type names, in order. */
type TypesOf<T extends readonly NotifierDescriptor[]> = { readonly [K in keyof T]: T[K] extends NotifierDescriptor<infer N> ? N : never };

export const CHANNEL_TYPES = NOTIFIERS.map((n) => n.type) as unknown as TypesOf<Notifiers>;
export type ChannelType = Notifiers[number]['type'];

/** Chat services posted to at their incoming-webhook URL, each with its own body (the descriptor's `chat`). */
export type ChatType = Extract<Notifiers[number], { chat: unknown }>['type'];
type ChatNotifier = NotifierDescriptor<ChatType> & { readonly chat: (parts: ChatParts) => Record<string, unknown> };
const isChatNotifier = (n: NotifierDescriptor): n is ChatNotifier => n.chat !== undefined;
export const CHAT_TYPES: readonly ChatType[] = (NOTIFIERS as readonly NotifierDescriptor[])
  .filter(isChatNotifier)
  .map((n) => n.type as ChatType);
export const isChatType = (type: ChannelType): type is ChatType => (CHAT_TYPES as readonly ChannelType[]).includes(type);

const BY_TYPE: ReadonlyMap<string, NotifierDescriptor<ChannelType>> = new Map(NOTIFIERS.map((n) => [n.type, n]));

/** The descriptor of a channel type. */
export function notifierOf(type: ChannelType): NotifierDescriptor<ChannelType> {
  const found = BY_TYPE.get(type);
  if (!found) throw new Error(`No notifier for channel type ${String(type)}`);
  return found;
}

/** A chat type's descriptor, its body builder present. */
export function chatNotifierOf(type: ChatType): ChatNotifier {
  const found = notifierOf(type);
  if (!isChatNotifier(found)) throw new Error(`Channel type ${type} is not a chat service`);
  return found as ChatNotifier;
}

/** The config fields a type takes, in order. */
export const fieldsOf = (type: ChannelType): (keyof ChannelConfig)[] => notifierOf(type).fields.map((f) => f.name);

/** The config fields of a type that are credentials themselves (exported as references, never as values). */
export const secretFields = (type: ChannelType): (keyof ChannelConfig)[] =>
  notifierOf(type)
    .fields.filter((f) => f.mark === 'secret')
    .map((f) => f.name);

/** The user ids a config names, per field that names users (`users`), its name as the API spells it (`config.userIds`). */
export const peopleNamedBy = (type: ChannelType, config: ChannelConfig): { field: string; userIds: readonly string[] }[] =>
  notifierOf(type)
    .fields.filter((f) => f.users === true)
    .map((f) => ({ field: `config.${f.name}`, userIds: (config[f.name] as readonly string[] | undefined) ?? [] }));

/** How a type's messages leave: the key of its sender (NotificationSenders). */
export const transportOf = (type: ChannelType): Transport => notifierOf(type).transport;

/** Whether a type's posts are signed with a secret the service issues per channel (the webhook's). */
export const isSigned = (type: ChannelType): boolean => notifierOf(type).signed === true;

/**
 * What a `post` type sends for a message: its descriptor's `post` when it has one, else its chat body
 * posted to the config's URL; null for a type of another transport.
 */
export const postRequestOf = (type: ChannelType, message: NotificationMessage, config: ChannelConfig): PostRequest | null =>
  postRequestBy(notifierOf(type), message, config);

/** postRequestOf, for a descriptor at hand. */
export function postRequestBy(notifier: NotifierDescriptor, message: NotificationMessage, config: ChannelConfig): PostRequest | null {
  if (notifier.transport !== 'post') return null;
  // Worked out on first use only: a body of its own (the webhook's) never reads the chat parts.
  let parts: ChatParts | undefined;
  const partsOf = () => (parts ??= chatParts(message, config.messagePrefix ?? null));
  if (notifier.post) {
    return notifier.post({
      message,
      config,
      get parts() {
        return partsOf();
      },
    });
  }
  if (notifier.chat) return { url: config.url, body: notifier.chat(partsOf()) };
  return null;
}
