import { AppError } from '../../domain/shared/app-error';
import type { AlertSource } from '../../domain/incident-management/alert-source';
import { alertsOf } from '../../domain/incident-management/alert-payloads';
import type { Clock } from '../shared/clock';
import type { RateLimitRule, RateLimiter } from '../shared/rate-limiter';
import type { SecretTokens } from '../identity/ports';
import type { AlertSourceRepository, IngestByteBudget } from './ports';
import type { ImEvent, ProcessedImEvent } from './im-event';
import type { CommitImEvents } from './commit-im-events';

/** Limits: 300 requests per minute per alert source. */
export const ALERT_SOURCE_RATE: RateLimitRule = { name: 'im-ingest', limit: 300, windowSeconds: 60 };

/**
 * Alert-source ingest, in two steps around reading the body. `admit` (before): the token names a
 * source (404 otherwise), its organization has IM on (imNotEnabled), the source is within its rate
 * (imIngestRateLimited) and the organization has budget left for the declared body
 * (imIngestByteBudgetExceeded). `ingest` (after): the body's bytes are counted against the hourly
 * budget, then every alert of the payload becomes an event, keyed within the source, and the
 * payload's events are group-committed together (CommitImEvents), answered once durable.
 */
export class IngestAlertPayload {
  constructor(
    private readonly sources: AlertSourceRepository,
    private readonly budget: IngestByteBudget,
    private readonly limiter: RateLimiter,
    private readonly secrets: SecretTokens,
    private readonly events: CommitImEvents,
    private readonly clock: Clock,
  ) {}

  async admit(token: string, declaredBytes: number | null): Promise<AlertSource> {
    const found = token.length <= 512 ? await this.sources.findByTokenHash(this.secrets.hash(token)) : null;
    if (!found) throw new AppError('notFound', {}, 'Unknown alert source');
    if (!found.imEnabled) throw new AppError('imNotEnabled');
    await this.admitSource(found.source, declaredBytes);
    return found.source;
  }

  /** The checks of `admit` for a source already in hand (the test button goes through them too). */
  async admitSource(source: AlertSource, declaredBytes: number | null): Promise<void> {
    const rate = await this.limiter.hit(ALERT_SOURCE_RATE, source.publicId);
    if (!rate.allowed) throw new AppError('imIngestRateLimited', { retryAfter: rate.retryAfterSeconds });
    const left = await this.budget.remaining(source.organizationId, this.clock.now());
    if (left.bytes <= 0 || (declaredBytes !== null && declaredBytes > left.bytes)) {
      throw new AppError('imIngestByteBudgetExceeded', { retryAfter: left.retryAfterSeconds });
    }
  }

  async ingest(source: AlertSource, body: unknown, bytes: number): Promise<ProcessedImEvent[]> {
    const spent = await this.budget.consume(source.organizationId, bytes, this.clock.now());
    if (!spent.allowed) throw new AppError('imIngestByteBudgetExceeded', { retryAfter: spent.retryAfterSeconds });
    const alerts = alertsOf(source.kind, body, source.mapping);
    const scope = { organizationId: source.organizationId, customerId: null };
    const events = alerts.map((alert): ImEvent => ({
      action: alert.action,
      dedupKey: alert.key === null ? undefined : source.dedupKeyFor(alert.key),
      summary: alert.summary,
      severity: alert.severity,
      source: alert.source ?? undefined,
      routing: source.routing,
      details: { ...alert.details, alertSourceId: source.publicId },
    }));
    // Group-committed with the other requests' events: the payload's alerts in one transaction, in
    // their order, answered once it committed (accepted means durable).
    return this.events.executeAll(scope, events);
  }
}
