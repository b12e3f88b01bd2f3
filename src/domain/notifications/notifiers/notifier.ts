import type { AddressAllowance } from '../channel-url';
import type { ChatParts, NotificationMessage } from '../message-parts';

export type { ChatParts } from '../message-parts';

/**
 * What a channel sends to. Per type: webhook {url, headers}; email {recipients}; sms {phoneNumbers};
 * slack, teams, discord {url (their incoming-webhook URL), messagePrefix}; ntfy {url (the server's),
 * topic, token (an access token, null when none), messagePrefix}; pagerduty {routingKey (the integration
 * key), url (the Events API's), messagePrefix}; telegram {botToken, chatId (an id or
 * @username), threadId (null when none), apiUrl (a Bot API server of one's own, null for the public
 * one), messagePrefix}; teams-workflows {url (its Workflows webhook URL), messagePrefix}; pushover
 * {appToken, userKey, url (the Message API's), messagePrefix}; matrix {url (the homeserver's), roomId,
 * accessToken, messagePrefix}; voice {phoneNumbers}; opsgenie {apiKey, url (the API's host),
 * messagePrefix}; google-chat {url, messagePrefix}; mattermost {url, channel (null: the webhook's
 * own), messagePrefix}; gotify {url (the server's), apiToken, messagePrefix}; zulip {url (the
 * server's), botEmail, apiKey, stream, streamTopic, messagePrefix}; web-push {userIds (the users whose
 * subscribed devices are notified)}. messagePrefix is message content:
 * it is never judged as a URL.
 */
export interface ChannelConfig {
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly recipients?: readonly string[];
  readonly phoneNumbers?: readonly string[];
  readonly messagePrefix?: string | null;
  readonly topic?: string;
  readonly token?: string | null;
  readonly routingKey?: string;
  readonly botToken?: string;
  readonly chatId?: string;
  readonly threadId?: string | null;
  readonly apiUrl?: string | null;
  readonly appToken?: string;
  readonly userKey?: string;
  readonly roomId?: string;
  readonly accessToken?: string;
  readonly apiKey?: string;
  readonly channel?: string | null;
  readonly botEmail?: string;
  readonly stream?: string;
  readonly streamTopic?: string;
  readonly apiToken?: string;
  readonly userIds?: readonly string[];
}

/**
 * What a config field is: `target` says where messages go (shown, exported as is); `secret` is a
 * credential itself (whoever has it can post: exported as a reference); `plain` is neither.
 */
export type FieldMark = 'target' | 'secret' | 'plain';

/**
 * What the API takes for a config field (the edge builds its schema from this): a string of at most
 * `max` characters, null too when `nullable`; a list of `min` to `max` strings of at most `itemMax`
 * each; or headers, names of 1 to `nameMax` characters, values of at most `valueMax`. The shape only:
 * the field's rules are the descriptor's `normalize`.
 */
export type FieldInput =
  | { readonly kind: 'string'; readonly max: number; readonly nullable?: boolean }
  | { readonly kind: 'list'; readonly itemMax: number; readonly min: number; readonly max: number }
  | { readonly kind: 'headers'; readonly nameMax: number; readonly valueMax: number };

export interface NotifierField {
  readonly name: keyof ChannelConfig;
  readonly mark: FieldMark;
  /** What a form calls it, a few words ("Webhook URL"); a field several types take may be called differently by each. */
  readonly label: string;
  /**
   * One line for whoever fills it in; the API describes the field as the types taking it, then this.
   * A field several types take is declared once (config-rules.ts), so its help and input agree.
   */
  readonly help: string;
  readonly input: FieldInput;
  /** A URL: the data export keeps its scheme and host only (its path or query may carry a token). */
  readonly url?: true;
  /**
   * Says who the channel reaches (recipientsOf): two enabled channels of one type and scope may not
   * share a value of it (notificationChannelRecipientExists).
   */
  readonly recipient?: true;
  /**
   * Names users of the organization by id (a list field): the application admits only users of the
   * caller's organization who see the channel's scope (peopleNamedBy), else invalidRequestBody
   * naming the item (reason notAUserOfScope), the same for an id of another organization as for none.
   */
  readonly users?: true;
}

/**
 * How a type's messages leave: `post` one JSON POST to a URL (webhook, chat services, any HTTP API),
 * `email` through SMTP, `sms` through the deployment's SMS provider, `voice` a phone call through the
 * same provider's account, `web-push` an encrypted push message to each subscribed device. The deliverer keeps one sender per
 * transport (NotificationSenders), so a new type of a known transport needs no sender of its own.
 */
export type Transport = 'post' | 'email' | 'sms' | 'voice' | 'web-push';

/**
 * What a `post` notifier sends for one message: the URL (undefined when the config has none: the
 * delivery is refused), the JSON (or form) body, headers of its own, and the method (POST unless the
 * API takes a PUT, as Matrix's idempotent send). The sender adds Content-Type and
 * X-Webhook-Id (or, for a `signed` type with its secret, the signature headers) after these, so they
 * cannot be forged; the URL, wherever it was built from, still goes through the target policy.
 */
export interface PostRequest {
  readonly url: string | undefined;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly method?: 'POST' | 'PUT';
  /**
   * The body, a flat record of strings, is sent form-encoded (application/x-www-form-urlencoded)
   * rather than as JSON, for an API that takes only forms (Zulip's).
   */
  readonly form?: true;
}

/** What a `post` builder is given: the message, the parts every chat body is made of, and the channel's config as stored. */
export interface PostInput {
  readonly message: NotificationMessage;
  readonly parts: ChatParts;
  readonly config: ChannelConfig;
}

/**
 * One notification channel type, all it declares in one file: its name and label, its config fields
 * and what each is, the validation of its config, how its messages leave and, for a `post` type, what
 * it posts. Listed once in NOTIFIERS (./index.ts); every list of types is derived from there.
 */
export interface NotifierDescriptor<T extends string = string> {
  readonly type: T;
  readonly label: string;
  /** What the API's description says of the type after its name, in parentheses (`E.164 phoneNumbers`). */
  readonly about?: string;
  /** Every field the config may hold, in order; any other field is refused. */
  readonly fields: readonly NotifierField[];
  /**
   * The config as stored, its fields already known to be among `fields`: throws the spec's
   * invalidRequestBody (or a type's own code) naming the field.
   */
  readonly normalize: (config: ChannelConfig, allowsPrivate?: AddressAllowance) => ChannelConfig;
  readonly transport: Transport;
  /**
   * Its posts are signed with a secret the service issues per channel (answered once as
   * signingSecret; X-Webhook-Signature over the body). Only for a `post` type.
   */
  readonly signed?: boolean;
  /**
   * A chat service's body for its incoming webhook (a `post` type posting `{url}` this body with no
   * headers of its own needs nothing more: see postRequestOf).
   */
  readonly chat?: (parts: ChatParts) => Record<string, unknown>;
  /** A `post` type's request when it is more than a chat body: its own URL, body or headers. Pure. */
  readonly post?: (input: PostInput) => PostRequest;
  /** A valid config, as stored (normalize returns it unchanged): for tests and examples. */
  readonly sample: ChannelConfig;
}
