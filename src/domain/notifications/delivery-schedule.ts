import type { IdentityEventKind } from '../identity/events';
import type { IncidentEventKind } from '../incidents/events';
import type { MaintenanceEventKind } from '../maintenance/events';
import type { ServiceLevelEventKind } from '../service-levels/events';
import type { WatchEventKind } from '../tenancy/events';
import type { ChannelEvent } from './channel-events';

/** How a delivery is retried: exponential back-off from `baseMs`, capped at `maxMs`, at most `maxAttempts` tries. */
export interface RetryPolicy {
  readonly baseMs: number;
  readonly maxMs: number;
  readonly maxAttempts: number;
}

/**
 * The wait before the next try after `attempt` tries failed (1 = the first): full jitter over
 * base * 2^(attempt-1), capped, so receivers that failed together are not retried together. A
 * Retry-After the receiver sent wins when longer (it asked for that much), still capped.
 * `random` is in [0, 1).
 */
export function retryDelayMs(attempt: number, policy: RetryPolicy, random: number, retryAfterMs: number | null): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(ceiling / 2 + (ceiling / 2) * random);
  return retryAfterMs === null ? jittered : Math.min(policy.maxMs, Math.max(jittered, retryAfterMs));
}

/**
 * A Retry-After header as milliseconds from `now`: delta-seconds or an HTTP date (RFC 9110 10.2.3);
 * null when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/** What one attempt came to: delivered, worth another try (a 5xx, 429, 408, a network error), or never (another 4xx). */
export type AttemptVerdict = 'delivered' | 'retry' | 'rejected';

export function verdictOf(statusCode: number | null): AttemptVerdict {
  if (statusCode === null) return 'retry';
  if (statusCode >= 200 && statusCode < 300) return 'delivered';
  if (statusCode === 408 || statusCode === 429 || statusCode >= 500) return 'retry';
  return 'rejected';
}

/**
 * Every kind of event the publishers define (the union the event catalogue decodes,
 * infrastructure/event-catalogue; relayed-events.ts holds the two equal).
 */
export type PublishedEventKind = IncidentEventKind | MaintenanceEventKind | ServiceLevelEventKind | WatchEventKind | IdentityEventKind;

/**
 * The channel event a published event is, by its kind (null: not one channels receive). Total over
 * the publishers' kinds: a new kind without its entry fails the typecheck.
 */
export type ChannelEventTable = { readonly [K in PublishedEventKind]: ChannelEvent | null };

const CHANNEL_EVENTS: ChannelEventTable = {
  incidentOpened: 'incident.opened',
  incidentAcknowledged: 'incident.acknowledged',
  incidentResolved: 'incident.resolved',
  reminderDue: 'incident.reminder',
  sslExpiryReminder: 'certificate.expiring',
  sslExpired: 'certificate.expired',
  dnsblReminder: 'ip.listed',
  // Announced to status page subscribers only, for now.
  'maintenance.scheduled': null,
  'maintenance.started': 'maintenance.started',
  'maintenance.ended': 'maintenance.ended',
  'domain.expiring': 'domain.expiring',
  'domain.expired': 'domain.expired',
  'ip.listed': 'ip.listed',
  'ip.clean': 'ip.clean',
  'slo.burning': 'slo.burning',
  'slo.recovered': 'slo.recovered',
  // Sent to the administrators it names as direct e-mails (SendSecurityNotices), not to channels.
  'identity.securityNotice': null,
};

const isPublishedKind = (kind: string): kind is PublishedEventKind => Object.hasOwn(CHANNEL_EVENTS, kind);

/** The channel event of an event's kind; null for a kind channels do not receive, or no publisher's. */
export const channelEventOf = (kind: string): ChannelEvent | null => (isPublishedKind(kind) ? CHANNEL_EVENTS[kind] : null);

/** The kinds channels receive (what routing reads from the outbox). */
export const OUTBOX_EVENT_KINDS: readonly PublishedEventKind[] = (Object.keys(CHANNEL_EVENTS) as PublishedEventKind[]).filter(
  (kind) => CHANNEL_EVENTS[kind] !== null,
);
