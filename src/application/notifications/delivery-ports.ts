import type { Transaction } from '../shared/transaction';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { Transport } from '../../domain/notifications/notifiers/notifier';
import type { AttemptVerdict } from '../../domain/notifications/delivery-schedule';
import type { NotificationMessage } from '../../domain/notifications/notification-message';
import { token } from '../shared/token';

/** An event of notification_outbox that channels receive, not routed yet. */
export interface OutboxEvent {
  readonly id: number;
  readonly organizationId: number;
  readonly kind: string;
  readonly customerId: number | null;
  readonly monitorId: number | null;
  readonly incidentId: string | null;
  readonly occurredAt: string;
  readonly summary: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** An event written to the outbox already routed: its kind there (the message's event) and who asked for it. */
export interface DispatchedEvent {
  readonly organizationId: number;
  readonly kind: string;
  readonly requestedBy: string | null;
}

/** An event and the channels it goes to, with the message they get. */
export interface EventRoute {
  readonly event: OutboxEvent;
  readonly channels: readonly { id: number; publicId: string; type: string }[];
  readonly message: Omit<NotificationMessage, 'id'>;
}

/** A delivery a worker holds under its lease: `attempts` tries were made before this one. */
export interface ClaimedDelivery {
  readonly id: string;
  readonly organizationId: number;
  readonly channelPublicId: string;
  readonly attempts: number;
  readonly message: NotificationMessage;
  /** Set when this delivery is another channel's failed delivery sent again to the default channel. */
  readonly fallbackOf?: string | null;
}

/** One try, as the ledger keeps it. */
export interface DeliveryAttempt {
  readonly attempt: number;
  readonly at: Date;
  /** The HTTP status, or the SMTP reply code; null when no answer came. */
  readonly statusCode: number | null;
  readonly outcome: 'delivered' | 'retry' | 'failed';
  readonly responseExcerpt: string | null;
  readonly latencyMs: number;
  readonly error: string | null;
}

/** Where a delivery goes after an attempt. */
export type DeliveryNext =
  | {
      status: 'pending';
      nextAttemptAt: Date;
      /** This attempt failed because of the channel's receiver: counts in the channel's health at once. */
      channelFault?: boolean;
      /** The channel is failing: a copy goes to the organization's default channel now, while retries go on. */
      fallBack?: boolean;
    }
  | { status: 'delivered' }
  | {
      status: 'failed';
      reason: string;
      /** The channel's receiver refused or never answered: counts in the channel's health (not when the service gave up: channel disabled or deleted, no sender). */
      channelFault?: boolean;
      /** The message is due to be sent again to the organization's default channel. */
      fallBack?: boolean;
    };

/** One delivery's attempt and where it goes next, to be recorded under the caller's lease. */
export interface Settlement {
  readonly deliveryId: string;
  readonly attempt: DeliveryAttempt;
  readonly next: DeliveryNext;
}

export interface DeliveryFilter {
  channelId?: string;
  incidentId?: string;
}

/** A delivery as the read API shows it, with its attempts. */
export interface DeliveryRecord {
  readonly id: string;
  readonly channelId: string;
  readonly channelType: string;
  readonly event: string;
  readonly incidentId: string | null;
  readonly customerId: number | null;
  readonly monitorId: number | null;
  readonly status: 'pending' | 'delivered' | 'failed';
  readonly attempts: readonly DeliveryAttempt[];
  readonly nextAttemptAt: Date | null;
  readonly createdAt: Date;
  readonly deliveredAt: Date | null;
  readonly failedAt: Date | null;
  readonly lastError: string | null;
  /** On a fallback: the failed delivery it sends again. */
  readonly fallbackOf: string | null;
  /** On a failed delivery: its fallback to the default channel, once written. */
  readonly fallbackId: string | null;
}

/**
 * The delivery ledger. `route` marks an outbox event routed and inserts one delivery per channel in
 * one statement (so routing never doubles and a crash loses nothing); `routeMany` does so for a
 * round's events in one statement (an event another worker routed first gets nothing from this
 * one) and answers how many events this call routed. `claimDue` leases due
 * deliveries (FOR UPDATE SKIP LOCKED: two workers never hold one row); `settle` records an attempt
 * and the outcome only while the lease is the caller's (false when it lapsed and was taken).
 */
export interface DeliveryLedger {
  unroutedEvents(kinds: readonly string[], limit: number): Promise<OutboxEvent[]>;
  route(
    event: OutboxEvent,
    channels: readonly { id: number; publicId: string; type: string }[],
    message: Omit<NotificationMessage, 'id'>,
    at: Date,
  ): Promise<boolean>;
  routeMany(routes: readonly EventRoute[], at: Date): Promise<number>;
  /**
   * An event whose channels are already chosen (a channel's test, a manual alert): writes its
   * outbox row, routed, with one delivery per channel, in one statement. Answers the deliveries'
   * ids in the channels' order.
   */
  dispatch(
    event: DispatchedEvent,
    channels: readonly { id: number; publicId: string; type: string }[],
    message: Omit<NotificationMessage, 'id'>,
    at: Date,
  ): Promise<string[]>;
  /** Leases the due channel deliveries to `owner`, none of `sendingHere` (being sent by this process: SendingNow). */
  claimDue(owner: string, now: Date, leaseMs: number, limit: number, sendingHere: readonly string[]): Promise<ClaimedDelivery[]>;
  /** The soonest a pending delivery (channel or direct) may be claimed, none of `sendingHere`: its next attempt or lease's end (null: none). */
  nextDueAt(sendingHere: readonly string[]): Promise<Date | null>;
  /** One pending delivery no worker holds, claimed under a lease (the test button's own first attempt); null otherwise. */
  claimOne(owner: string, id: string, now: Date, leaseMs: number): Promise<ClaimedDelivery | null>;
  settle(owner: string, deliveryId: string, attempt: DeliveryAttempt, next: DeliveryNext): Promise<boolean>;
  /**
   * `settle` for several deliveries in one statement, each exactly as `settle` would (the lease
   * fence per row; the channels' health moved by the attempts in the order given). Answers the ids
   * it settled; the others' leases had lapsed and were taken.
   */
  settleMany(owner: string, settlements: readonly Settlement[]): Promise<Set<string>>;
  /**
   * The channel deliveries `scope` sees, newest first, filtered in the query (so `total` and paging
   * count only those): the organization's scope sees every one; a customer's scope sees the
   * deliveries through its customer's channels only (its own and its monitors' overrides, whatever
   * event they told), never those through the organization's channels or another customer's. A
   * fallback's id (`fallbackId`) and the delivery a fallback sends again (`fallbackOf`) are given
   * only when the scope sees that delivery too.
   */
  list(
    scope: TenantScope,
    filter: DeliveryFilter,
    page: { offset: number; limit: number },
  ): Promise<{ items: DeliveryRecord[]; total: number }>;
}
export const DELIVERY_LEDGER = token<DeliveryLedger>('DeliveryLedger');

/**
 * An address that is not a notification channel: a status page's subscriber, a report's reader, a
 * person paged, an export's requester. Messages to it go through the same ledger (retries, attempts).
 */
export type DirectRecipient =
  | { readonly type: 'email'; readonly address: string }
  | { readonly type: 'webhook'; readonly url: string; readonly secret: string | null }
  | { readonly type: 'sms'; readonly phone: string }
  /** A device a person subscribed to Web Push in the console (a page through their `web-push` contact method). */
  | { readonly type: 'web-push'; readonly subscriptionId: string };

/** What a direct message says, as the ledger keeps it until it is delivered. */
export interface DirectContent {
  readonly event: string;
  readonly occurredAt: string;
  readonly subject: string;
  /** Plain text: the e-mail's text part, the SMS, the webhook's `summary`. */
  readonly text: string;
  /** The e-mail's HTML part. */
  readonly html?: string;
  /** Extra e-mail headers, e.g. List-Unsubscribe and List-Unsubscribe-Post. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The webhook body's `data`. */
  readonly data?: Readonly<Record<string, unknown>>;
  /** E-mail attachments by file path, read when the message is sent. */
  readonly attachments?: readonly { readonly filename: string; readonly path: string; readonly contentType: string }[];
}

export interface DirectMessage extends Omit<DirectContent, 'occurredAt'> {
  readonly organizationId: number;
  readonly customerId: number | null;
  readonly recipient: DirectRecipient;
  /** Once per key and organization: a second enqueue with the key answers the first delivery's id and adds nothing. */
  readonly dedupKey: string;
  readonly incidentId?: string | null;
}

/**
 * Writes direct messages into the delivery ledger, in the caller's transaction when there is one
 * (TransactionRunner.run), so a message exists exactly when the change that causes it does.
 * Answers the deliveries' ids in the messages' order.
 */
export interface DirectDeliveries {
  /** `tx`: the transaction of the change that causes the messages (they commit with it). */
  enqueue(messages: readonly DirectMessage[], at: Date, tx: Transaction): Promise<string[]>;
}
export const DIRECT_DELIVERIES = token<DirectDeliveries>('DirectDeliveries');

/** A direct delivery a worker holds under its lease. */
export interface ClaimedDirectDelivery {
  readonly id: string;
  readonly organizationId: number;
  readonly customerId: number | null;
  readonly recipient: DirectRecipient;
  readonly attempts: number;
  readonly content: DirectContent;
}

/** The due direct deliveries, leased as channel deliveries are (settled through DeliveryLedger.settle). */
export interface DirectDeliveryQueue {
  /** Leases the due ones to `owner`, none of `sendingHere` (SendingNow); one statement, no tx: the lease commits at once. */
  claimDue(owner: string, now: Date, leaseMs: number, limit: number, sendingHere: readonly string[]): Promise<ClaimedDirectDelivery[]>;
}
export const DIRECT_DELIVERY_QUEUE = token<DirectDeliveryQueue>('DirectDeliveryQueue');

/** Sends one direct message of its recipient's kind; `deliveryId` is the idempotency key. */
export interface DirectSender {
  sendDirect(delivery: ClaimedDirectDelivery): Promise<SendOutcome>;
}
/** A sender for every kind of direct recipient (total, as NotificationSenders). */
export type DirectSenders = Readonly<Record<DirectRecipient['type'], DirectSender>>;
export const DIRECT_SENDERS = token<DirectSenders>('DirectSenders');

/** What one send came to. */
export interface SendOutcome {
  readonly verdict: AttemptVerdict;
  readonly statusCode: number | null;
  readonly responseExcerpt: string | null;
  /** The receiver's Retry-After, as milliseconds from now. */
  readonly retryAfterMs: number | null;
  readonly error: string | null;
  readonly latencyMs: number;
  /** The service could not send at all (no sender configured, the channel gone): not the receiver's fault, so not in its health. */
  readonly local?: true;
}

/** Sends one message to one channel (webhook, chat, email), every connection through the target policy. */
export interface NotificationSender {
  send(channel: NotificationChannel, message: NotificationMessage, secret: string | null): Promise<SendOutcome>;
}
/**
 * A sender for every transport (a channel's is its descriptor's `transport`): the table is total,
 * so a transport added without its sender fails the typecheck instead of a delivery at run time,
 * and a new channel type of a known transport needs no sender. A transport the deployment cannot
 * use (SMS without an account) has an `UnavailableSender` saying why.
 */
export type NotificationSenders = Readonly<Record<Transport, NotificationSender>>;
export const NOTIFICATION_SENDERS = token<NotificationSenders>('NotificationSenders');

/** One SMS sent or not: the provider's message id when it took it (`verdict` delivered). */
export interface SmsSendOutcome extends SendOutcome {
  readonly messageId: string | null;
}

/** An SMS gateway: sends one text to one E.164 number (delivered, worth another try, or refused for good). */
export interface SmsProvider {
  send(to: string, text: string): Promise<SmsSendOutcome>;
}
export const SMS_PROVIDER = token<SmsProvider>('SmsProvider');

/**
 * A customer's monthly SMS allowance (its package's smsMonthlyAllowance) and usage (the counts of
 * GET /api/customers/sms-usage). `reserve` counts `count` messages only if they fit the allowance,
 * atomically, so concurrent senders never overshoot it; `release` gives back what was reserved and not sent.
 */
export interface SmsQuota {
  reserve(organizationId: number, customerId: number, month: string, count: number): Promise<SmsReservation>;
  release(organizationId: number, customerId: number, month: string, count: number): Promise<void>;
}
export type SmsReservation = { granted: true } | { granted: false; used: number; allowance: number };
export const SMS_QUOTA = token<SmsQuota>('SmsQuota');

/** A channel a delivery goes to, as the ledger writes it. */
export interface DeliveryTarget {
  readonly id: number;
  readonly publicId: string;
  readonly type: string;
}
