import { DIGEST_EVENT, type ChannelEvent } from './channel-events';
import type { NotificationMessage } from './notification-message';

/**
 * Storms, told once (as PagerDuty's alert grouping and Better Stack's do): per customer, the
 * incidents opening within `windowMs` of the window's first are counted; the first `alone` go out
 * at once, one message each (the first alerts are never delayed). One more starts the customer's
 * storm: from then on its incident transitions are held, and each channel gets
 *   1. one digest for the storm (`stage: started`) once it settled: no new failure joined for
 *      `settleMs`, or it gathered for `windowMs`, whichever comes first (a burst of failures is
 *      told together as soon as it stops, a long one after the window): how many of the
 *      customer's monitors are down, listing the held ones;
 *   2. at most one follow-up (`stage: update`) per `followUpMs` with what changed since (new
 *      failures, recoveries), and none when nothing changed; failures joining within the window
 *      after the digest (the same burst, seen late) are told in a first follow-up as soon as they
 *      settle (a burst is told in two messages seconds apart, never a period apart);
 *   3. one recovery digest (`stage: over`) when the storm is over: its last incident recovered
 *      (told at once), or no new failure joined for `quietMs` (the incident-management storm's
 *      30 quiet minutes); the ones still down are then named and later tell of themselves again.
 * Reminders of the storm's incidents are absorbed while it lasts (its follow-ups speak for them).
 */
export interface StormPolicy {
  /** Openings of a customer within a window sent alone; one more starts a storm. */
  readonly alone: number;
  /** The window that detects a storm, and how long its first digest gathers at most (ms); 0 turns storms off. */
  readonly windowMs: number;
  /** The first digest goes out once no new failure joined for this long (ms), if before the window ends. */
  readonly settleMs: number;
  /** At most one follow-up per channel per this long (ms). */
  readonly followUpMs: number;
  /** A storm no new failure joined for this long is over (ms). */
  readonly quietMs: number;
}

/** The incident transitions that storm: many monitors of one customer failing, recovering or reminding together. */
export const STORM_EVENTS: readonly ChannelEvent[] = ['incident.opened', 'incident.resolved', 'incident.reminder'];

/**
 * Whether an event goes through its customer's storm: incident transitions of a customer (an
 * organization-wide event has no customer to group by), while storms are on.
 */
export function groupsInStorms(kind: ChannelEvent, customerId: number | null, policy: StormPolicy): boolean {
  return policy.windowMs > 0 && customerId !== null && STORM_EVENTS.includes(kind);
}

/** A storm under way (times in epoch ms). */
export interface Storm {
  readonly startedAt: number;
  readonly lastFailureAt: number;
  /** Its incidents still down. */
  readonly down: readonly string[];
  /** How many incidents it counted. */
  readonly total: number;
  /** When it last told its channels (null: its first digest is not out yet). */
  readonly toldAt: number | null;
  /** When the first change not told yet happened (null: nothing to tell). */
  readonly pendingSince: number | null;
  /**
   * Its first digest is out and no follow-up yet: failures joining within the window after the
   * digest (the same burst, seen late: a slow recording, a pause in routing, a digest sent at the
   * window's end) are told in one follow-up as soon as they settle, not a follow-up period later.
   */
  readonly catchUp?: boolean;
}

/** A customer's storm state: its detection window while calm, the storm while one is on. */
export interface CustomerStorm {
  readonly windowEndsAt: number | null;
  /** The incidents opened in the window (sent alone); they join the storm if one starts. */
  readonly windowIncidents: readonly string[];
  readonly storm: Storm | null;
}

export const CALM: CustomerStorm = { windowEndsAt: null, windowIncidents: [], storm: null };

/** What routing does with an event: send it alone now, hold it for the storm's next message, or absorb it (a reminder the storm speaks for). */
export type StormDecision = 'alone' | 'held' | 'absorbed';

export interface StormEvent {
  readonly kind: ChannelEvent;
  readonly incidentId: string | null;
  readonly at: number;
}

/** One event through the customer's storm state. */
export function routeInStorm(
  state: CustomerStorm,
  event: StormEvent,
  policy: StormPolicy,
): { state: CustomerStorm; decision: StormDecision } {
  const id = event.incidentId;
  const storm = state.storm;
  if (id === null) return { state, decision: 'alone' };
  if (event.kind === 'incident.opened') {
    if (storm !== null) {
      const down = storm.down.includes(id) ? storm.down : [...storm.down, id];
      return {
        state: {
          ...state,
          storm: {
            ...storm,
            down,
            total: storm.total + (down === storm.down ? 0 : 1),
            lastFailureAt: event.at,
            pendingSince: storm.pendingSince ?? event.at,
          },
        },
        decision: 'held',
      };
    }
    const open = state.windowEndsAt !== null && state.windowEndsAt > event.at;
    const incidents = open ? [...state.windowIncidents, id] : [id];
    const windowEndsAt = open ? state.windowEndsAt : event.at + policy.windowMs;
    if (incidents.length <= policy.alone) return { state: { windowEndsAt, windowIncidents: incidents, storm: null }, decision: 'alone' };
    return {
      state: {
        windowEndsAt: null,
        windowIncidents: [],
        storm: {
          startedAt: event.at,
          lastFailureAt: event.at,
          down: incidents,
          total: incidents.length,
          toldAt: null,
          pendingSince: event.at,
        },
      },
      decision: 'held',
    };
  }
  if (storm === null || !storm.down.includes(id)) return { state, decision: 'alone' };
  if (event.kind === 'incident.reminder') return { state, decision: 'absorbed' };
  return {
    state: { ...state, storm: { ...storm, down: storm.down.filter((d) => d !== id), pendingSince: storm.pendingSince ?? event.at } },
    decision: 'held',
  };
}

/** When the storm next tells its channels (its first digest, a follow-up, its end); null when calm. */
export function stormDueAt(state: CustomerStorm, policy: StormPolicy): number | null {
  const storm = state.storm;
  if (storm === null) return null;
  const quietEnd = storm.lastFailureAt + policy.quietMs;
  if (storm.pendingSince === null) return quietEnd;
  if (storm.down.length === 0) return storm.pendingSince;
  const settled = storm.lastFailureAt + policy.settleMs;
  const changes =
    storm.toldAt === null
      ? Math.min(storm.startedAt + policy.windowMs, settled)
      : Math.max(storm.toldAt + policy.followUpMs, storm.pendingSince + policy.windowMs);
  // Failures (not recoveries alone) that began joining within the window after the digest.
  const catchUp =
    storm.catchUp === true &&
    storm.toldAt !== null &&
    storm.lastFailureAt > storm.toldAt &&
    storm.pendingSince < storm.toldAt + policy.windowMs;
  return Math.min(catchUp ? Math.min(changes, settled) : changes, quietEnd);
}

/** The message a storm sends: its first digest, a follow-up, or its end. */
export type StormStage = 'started' | 'update' | 'over';

/** At `now`: the message due (if any) and the state after it. */
export function tellStorm(state: CustomerStorm, now: number, policy: StormPolicy): { state: CustomerStorm; stage: StormStage | null } {
  const due = stormDueAt(state, policy);
  const storm = state.storm;
  if (storm === null || due === null || due > now) return { state, stage: null };
  if (storm.down.length === 0 || now >= storm.lastFailureAt + policy.quietMs) return { state: CALM, stage: 'over' };
  const first = storm.toldAt === null;
  return { state: { ...state, storm: { ...storm, toldAt: now, pendingSince: null, catchUp: first } }, stage: first ? 'started' : 'update' };
}

/** An event held for a storm's message, as the message lists it. */
export interface HeldEvent {
  readonly incidentId: string | null;
  readonly monitorId: number | null;
  readonly summary: string;
  readonly occurredAt: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** A held event and the transition it is. */
export interface StormChange extends HeldEvent {
  readonly kind: ChannelEvent;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The message's one line (an SMS is this line): the storm's state, then the changes it lists, naming the first few. */
export function stormSummary(stage: StormStage, customer: string, storm: Storm, changes: readonly StormChange[]): string {
  const opened = changes.filter((c) => c.kind === 'incident.opened');
  const resolved = changes.filter((c) => c.kind === 'incident.resolved');
  const down = storm.down.length;
  const head =
    stage === 'started'
      ? `${plural(down, 'monitor', 'monitors')} of ${customer} ${down === 1 ? 'is' : 'are'} down`
      : stage === 'update'
        ? `${customer}: ${[opened.length > 0 ? `${opened.length} more down` : null, resolved.length > 0 ? `${resolved.length} recovered` : null].filter(Boolean).join(', ')}; ${down} still down`
        : down === 0
          ? `${customer}: storm over, all ${plural(storm.total, 'monitor', 'monitors')} recovered`
          : `${customer}: storm over (quiet), ${storm.total - down} of ${storm.total} recovered, ${down} still down`;
  const names = changes.slice(0, 3).map((c) => c.summary);
  const rest = changes.length - names.length;
  return names.length === 0 ? head : `${head}: ${names.join('; ')}${rest > 0 ? `; and ${rest} more` : ''}`;
}

/** A digest lists at most this many incidents (`data.count` says how many it stands for), so one message stays a few hundred kB at most. */
export const DIGEST_MAX_LISTED = 500;

/**
 * A storm's message for one channel (the changes that channel would have received one by one): the
 * webhook's `data` says the stage, the storm's figures (`down`, `total`, `startedAt`) and lists the
 * changes (`incidents`, each with its `change`: opened or resolved, the first DIGEST_MAX_LISTED).
 * `data.digestOf` names the transition it mostly tells of, so a receiver of the earlier digests
 * reads it as before.
 */
export function stormMessage(
  stage: StormStage,
  customer: { id: number; name: string },
  storm: Storm,
  changes: readonly StormChange[],
  at: Date,
): Omit<NotificationMessage, 'id'> {
  const opened = changes.filter((c) => c.kind === 'incident.opened').length;
  const resolved = changes.filter((c) => c.kind === 'incident.resolved').length;
  const digestOf = stage === 'started' || (stage === 'update' && opened > 0) ? 'incident.opened' : 'incident.resolved';
  return {
    event: DIGEST_EVENT,
    occurredAt: at.toISOString(),
    summary: stormSummary(stage, customer.name, storm, changes),
    incidentId: null,
    monitorId: null,
    customerId: customer.id,
    data: {
      digestOf,
      stage,
      count: changes.length,
      opened,
      resolved,
      down: storm.down.length,
      total: storm.total,
      stormStartedAt: new Date(storm.startedAt).toISOString(),
      incidents: changes.slice(0, DIGEST_MAX_LISTED).map((e) => ({
        incidentId: e.incidentId,
        monitorId: e.monitorId,
        change: e.kind === 'incident.opened' ? 'opened' : 'resolved',
        monitorPublicId: typeof e.data.monitorPublicId === 'string' ? e.data.monitorPublicId : null,
        summary: e.summary,
        occurredAt: e.occurredAt,
      })),
    },
  };
}
