import type { CheckKind } from '../../domain/checks/check-request';
import type { CheckStatus } from '../../domain/checks/check-result';
import { token } from '../shared/token';

/**
 * What the check engine reports about itself. Called once per finished check on the engine's hot
 * path: implementations must not allocate per call beyond what they keep (pre-bound series).
 */
export interface EngineMetrics {
  /** A check ran: its kind, the location it ran from, its status, and how long after its slot it started. */
  checkRan(kind: CheckKind, location: string, status: CheckStatus, latenessMs: number): void;
  /** A recording round: results stored, and results dropped because the worker had been fenced. */
  resultsRecorded(recorded: number, dropped: number): void;
}

export type JobOutcome = 'succeeded' | 'failed';

/** What the job system reports: one call per job run. */
export interface JobMetrics {
  jobRan(job: string, outcome: JobOutcome, seconds: number): void;
}

export type DeliveryOutcome = 'delivered' | 'failed';

/** What the notification deliverer reports, once per delivery attempt of an outbox row. */
export interface DeliveryMetrics {
  notificationDelivery(outcome: DeliveryOutcome): void;
}

/** What the HTTP host reports: one call per answered request. */
export interface HttpMetrics {
  /** `route` is the route's template (`/api/websites/:id`), never the path as sent. */
  requestServed(method: string, route: string, statusCode: number, seconds: number): void;
}

export type Metrics = EngineMetrics & JobMetrics & DeliveryMetrics & HttpMetrics;
export const METRICS = token<Metrics>('Metrics');

/** The metrics as text for a scraper (Prometheus' text format). */
export interface MetricsExposition {
  readonly contentType: string;
  render(): Promise<string>;
}
export const METRICS_EXPOSITION = token<MetricsExposition>('MetricsExposition');
