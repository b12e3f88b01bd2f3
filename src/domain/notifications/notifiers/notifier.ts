import type { AddressAllowance } from '../channel-url';

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
}

/** What every chat body is made of, worked out once from the message (see chatPayload). */
export interface ChatParts {
  readonly title: string;
  /** The prefix (if any), the title and the summary on one line. */
  readonly headline: string;
  /** The summary, then a manual alert's text or a digest's incidents. */
  readonly body: string;
  readonly color: number;
  readonly prefix: string | null;
  readonly event: string;
  readonly occurredAt: string;
}

/**
 * One notification channel type, all it declares in one file: its name and label, its config fields
 * and what each is, the validation of its config and, for a chat service, the body its incoming
 * webhook accepts. Listed once in NOTIFIERS (./index.ts); every list of types is derived from there.
 */
export interface NotifierDescriptor<T extends string = string> {
  readonly type: T;
  readonly label: string;
  /** Every field the config may hold, in order; any other field is refused. */
  readonly fields: readonly NotifierField[];
  /**
   * The config as stored, its fields already known to be among `fields`: throws the spec's
   * invalidRequestBody (or a type's own code) naming the field.
   */
  readonly normalize: (config: ChannelConfig, allowsPrivate?: AddressAllowance) => ChannelConfig;
  /** A chat service's body for its incoming webhook. */
  readonly chat?: (parts: ChatParts) => Record<string, unknown>;
  /** A valid config, as stored (normalize returns it unchanged): for tests and examples. */
  readonly sample: ChannelConfig;
}
