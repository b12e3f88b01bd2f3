/**
 * The delivery ledger's port for messages to an address that is not a notification channel (here: a
 * report's recipients), as the notifications context declares it. Symbol.for makes the token the
 * notifications module binds the same one this context asks for.
 */
export type DirectRecipient =
  | { readonly type: 'email'; readonly address: string }
  | { readonly type: 'webhook'; readonly url: string; readonly secret: string | null }
  | { readonly type: 'sms'; readonly phone: string };

export interface DirectMessage {
  readonly organizationId: number;
  readonly customerId: number | null;
  readonly recipient: DirectRecipient;
  /** What it is about, e.g. 'report.ready'. */
  readonly event: string;
  readonly subject: string;
  /** Plain text (email text part, SMS, webhook summary). */
  readonly text: string;
  readonly html?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly data?: Readonly<Record<string, unknown>>;
  /** Files read at send time. */
  readonly attachments?: readonly { filename: string; path: string; contentType: string }[];
  /** A second enqueue with the same key in the organization is ignored. */
  readonly dedupKey: string;
  readonly incidentId?: string | null;
}

export interface DirectDeliveries {
  /** Writes the messages into the ledger (in the caller's transaction); answers the delivery ids. */
  enqueue(messages: readonly DirectMessage[], at: Date): Promise<string[]>;
}
export const DIRECT_DELIVERIES = Symbol.for('DirectDeliveries');
