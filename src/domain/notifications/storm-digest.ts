import { DIGEST_EVENT, type ChannelEvent } from './channel-events';
import type { NotificationMessage } from './notification-message';

/**
 * Storm grouping, as PagerDuty's alert grouping and Better Stack's do it: per customer and kind of
 * incident transition, a window opens at the first event; the first `alone` events of the window
 * go out at once, one message each (the first alert is never delayed), the later ones are held
 * and go out as one digest per channel when the window ends. A storm of a thousand failing
 * monitors costs a handful of messages per window instead of a thousand.
 */
export interface StormPolicy {
  /** Events of a window sent alone before the rest are held for the digest. */
  readonly alone: number;
  /** How long a window lasts from its first event (ms); 0 turns grouping off. */
  readonly windowMs: number;
}

/** The incident transitions that storm: many monitors of one customer failing, recovering or reminding together. */
export const STORM_EVENTS: readonly ChannelEvent[] = ['incident.opened', 'incident.resolved', 'incident.reminder'];

/**
 * Whether an event is counted in its customer's storm window: incident transitions of a customer
 * (an organization-wide event has no customer to group by), while grouping is on.
 */
export function groupsInStorms(kind: ChannelEvent, customerId: number | null, policy: StormPolicy): boolean {
  return policy.windowMs > 0 && customerId !== null && STORM_EVENTS.includes(kind);
}

/** A customer's window for one kind: when it ends and how many events it counted. */
export interface StormWindow {
  readonly endsAt: Date;
  readonly events: number;
}

/**
 * Counts an event routed at `at` in its window (a new one when none is open): answers the window
 * after it, and whether the event is held for the digest (past the first `alone`) or goes out now.
 * The SQL adapter applies this same rule in its routing statement, under the window row's lock.
 */
export function countInWindow(current: StormWindow | null, at: Date, policy: StormPolicy): { window: StormWindow; held: boolean } {
  const window = current === null || current.endsAt <= at
    ? { endsAt: new Date(at.getTime() + policy.windowMs), events: 1 }
    : { endsAt: current.endsAt, events: current.events + 1 };
  return { window, held: window.events > policy.alone };
}

/** An event held in a window, as the digest lists it. */
export interface HeldEvent {
  readonly incidentId: string | null;
  readonly monitorId: number | null;
  readonly summary: string;
  readonly occurredAt: string;
  readonly data: Readonly<Record<string, unknown>>;
}

const NOUNS: Readonly<Record<string, [string, string]>> = {
  'incident.opened': ['monitor is down', 'monitors are down'],
  'incident.resolved': ['monitor recovered', 'monitors recovered'],
  'incident.reminder': ['monitor is still down', 'monitors are still down'],
};

/** The digest's one line: how many and of what, naming the first few (an SMS is this line). */
export function digestSummary(kind: ChannelEvent, events: readonly HeldEvent[]): string {
  const [one, many] = NOUNS[kind] ?? ['event', 'events'];
  const head = `${events.length} more ${events.length === 1 ? one : many}`;
  const names = events.slice(0, 3).map((e) => e.summary);
  const rest = events.length - names.length;
  return `${head}: ${names.join('; ')}${rest > 0 ? `; and ${rest} more` : ''}`;
}

/** A digest lists at most this many incidents (`data.count` says how many it stands for), so one message stays a few hundred kB at most. */
export const DIGEST_MAX_LISTED = 500;

/**
 * The digest of a window's held events for one channel: one message listing each incident (the
 * webhook's `data.incidents`, the first DIGEST_MAX_LISTED), at the window's end. `data.digestOf`
 * names the transition, so a receiver handles it as that many events of that kind.
 */
export function digestMessage(
  kind: ChannelEvent, customerId: number, events: readonly HeldEvent[], window: { startedAt: Date | null; endedAt: Date },
): Omit<NotificationMessage, 'id'> {
  return {
    event: DIGEST_EVENT, occurredAt: window.endedAt.toISOString(), summary: digestSummary(kind, events),
    incidentId: null, monitorId: null, customerId,
    data: {
      digestOf: kind, count: events.length,
      windowStartedAt: window.startedAt?.toISOString() ?? null, windowEndedAt: window.endedAt.toISOString(),
      incidents: events.slice(0, DIGEST_MAX_LISTED).map((e) => ({
        incidentId: e.incidentId, monitorId: e.monitorId,
        monitorPublicId: typeof e.data.monitorPublicId === 'string' ? e.data.monitorPublicId : null,
        summary: e.summary, occurredAt: e.occurredAt,
      })),
    },
  };
}

/** A digest's incidents as a message renders them (chat, e-mail); empty for any other message. */
export function digestLines(message: Pick<NotificationMessage, 'event' | 'data'>, max = 20): string[] {
  if (message.event !== DIGEST_EVENT || !Array.isArray(message.data.incidents)) return [];
  const incidents = message.data.incidents as ReadonlyArray<{ summary?: unknown; occurredAt?: unknown }>;
  const total = typeof message.data.count === 'number' ? message.data.count : incidents.length;
  const lines = incidents.slice(0, max).map((i) => `- ${String(i.summary)} (${String(i.occurredAt)})`);
  return total > lines.length ? [...lines, `- and ${total - lines.length} more`] : lines;
}
