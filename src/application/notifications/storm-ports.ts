import type { NotificationMessage } from '../../domain/notifications/notification-message';
import type { CustomerStorm, StormDecision } from '../../domain/notifications/storm-digest';
import { token } from '../shared/token';
import type { DeliveryTarget, EventRoute, OutboxEvent } from './delivery-ports';

/** A customer's storm as stored: its state and the version a write must still find. */
export interface StoredStorm {
  readonly state: CustomerStorm;
  /** 0: no row yet. */
  readonly version: number;
}

/** A customer's event routed through its storm: the decision, and (sent alone) its channels and message. */
export interface StormRoute extends EventRoute {
  readonly decision: StormDecision;
}

/** A customer's storm write of a routing round: its events through the storm and the storm's new state. */
export interface StormWrite {
  readonly organizationId: number;
  readonly customerId: number;
  /** The version read (0: no row yet). */
  readonly version: number;
  readonly next: CustomerStorm;
  readonly dueAt: Date | null;
  readonly routes: readonly StormRoute[];
}

/** A storm's message to write: the storm as read, its state after, and a delivery per channel. */
export interface StormTell {
  readonly storm: DueStorm;
  readonly next: CustomerStorm;
  readonly dueAt: Date | null;
  readonly deliveries: readonly { channel: DeliveryTarget; message: Omit<NotificationMessage, 'id'> }[];
}

/** The events a storm holds (oldest first), each with the transition it was held as. */
export type HeldEvents = readonly (OutboxEvent & { readonly heldKind: string })[];

/** A storm whose next message is due, with the events it holds (oldest first). */
export interface DueStorm extends StoredStorm {
  readonly organizationId: number;
  readonly customerId: number;
  readonly customerName: string;
  /** When its message is due (at most the `now` it was read for, unless read ahead). */
  readonly dueAt: Date;
  readonly held: HeldEvents;
}

/**
 * The events a storm held at `version`, as read before: a storm at a later version holds those
 * (unless it told them since) and the ones it held after, so only these are read.
 */
export type KnownHeld = (storm: {
  organizationId: number;
  customerId: number;
}) => { readonly version: number; readonly held: HeldEvents } | undefined;

/**
 * Customers' storms in the ledger: durable, so a crash during a storm loses nothing. One row per
 * organization and customer holds the state (CustomerStorm) with a version; every write is one
 * statement that goes ahead only if the row is still at the version read and every event it routes
 * is still unrouted (every event it tells is still untold), so two workers never route an event
 * twice nor double a message: the loser writes nothing and its events wait for the next round.
 */
export interface StormLedger {
  /** The customer's storm (CALM at version 0 when it has no row). */
  storm(organizationId: number, customerId: number): Promise<StoredStorm>;
  /** The storms of these customers in one read, in order (a routing round's customers). */
  stormsOf(customers: readonly { organizationId: number; customerId: number }[]): Promise<StoredStorm[]>;
  /**
   * Routes a customer's events at once: the alone ones with their deliveries, the held ones held for
   * the storm's next message, the absorbed ones marked routed; and the storm's new state (due at
   * `dueAt`; with no events, the state and its due time alone). False, and nothing written, on a lost race.
   */
  route(
    organizationId: number,
    customerId: number,
    version: number,
    next: CustomerStorm,
    dueAt: Date | null,
    routes: readonly StormRoute[],
    at: Date,
  ): Promise<boolean>;
  /**
   * Many customers' `route` in one statement (a routing round's storm writes), each customer's
   * write guarded on its own as `route`'s: which were written, in the order given.
   */
  routeAll(writes: readonly StormWrite[], at: Date): Promise<boolean[]>;
  /**
   * Storms whose next message is due by `now` (at most `limit`, soonest first), with the events
   * each held at the version read; what `known` gives is not read again (only what was held since).
   */
  dueStorms(now: Date, limit: number, known?: KnownHeld): Promise<DueStorm[]>;
  /** When the soonest storm is next due to tell its channels; null when none is. */
  nextDueAt(): Promise<Date | null>;
  /**
   * A storm's message: one outbox event (routed) and a delivery per channel, its held events marked
   * told by it, and the storm's new state; false, and nothing written, on a lost race.
   */
  tell(
    storm: DueStorm,
    next: CustomerStorm,
    dueAt: Date | null,
    deliveries: readonly { channel: DeliveryTarget; message: Omit<NotificationMessage, 'id'> }[],
    at: Date,
  ): Promise<boolean>;
  /** Many storms' `tell` in one statement (a round's due storms), each guarded on its own: which were written, in order. */
  tellAll(tells: readonly StormTell[], at: Date): Promise<boolean[]>;
}
export const STORM_LEDGER = token<StormLedger>('StormLedger');

/** A delivery that failed for good and is due to be sent again to the default channel. */
export interface FailedDelivery {
  readonly id: string;
  readonly organizationId: number;
  readonly channelId: number | null;
}

/** A channel whose streak of failed deliveries reached the threshold and is not announced yet. */
export interface FailingChannel {
  readonly id: number;
  readonly publicId: string;
  readonly organizationId: number;
  readonly customerId: number | null;
  readonly name: string;
  readonly type: string;
  readonly consecutiveFailures: number;
  readonly lastFailureReason: string | null;
}

/**
 * The fallback channel's side of the ledger. The streak itself is kept by `settle` (in its
 * statement: a failed delivery counts, a delivered one resets), so these only act on what is
 * durably recorded, each write one statement guarded so that two workers never double it:
 * `fallBack` clears the delivery's due mark and writes its copy to the target (none when the
 * target already has that event); `announceFailing` marks the channel failing and writes the
 * channel.failing event to the target, only while it is not marked.
 */
export interface ChannelHealthLedger {
  fallbacksDue(limit: number): Promise<FailedDelivery[]>;
  fallBack(delivery: FailedDelivery, target: DeliveryTarget | null, at: Date): Promise<boolean>;
  failingUnannounced(failingAfter: number, limit: number): Promise<FailingChannel[]>;
  announceFailing(
    channel: FailingChannel,
    failingAfter: number,
    target: DeliveryTarget | null,
    message: Omit<NotificationMessage, 'id'>,
    at: Date,
  ): Promise<boolean>;
}
export const CHANNEL_HEALTH_LEDGER = token<ChannelHealthLedger>('ChannelHealthLedger');
