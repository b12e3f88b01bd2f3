import type { Transaction } from '../shared/transaction';
import type { BurnState, ObjectiveSubject, ServiceLevelObjective } from '../../domain/service-levels/objective';
import type { DateRange } from '../../domain/results/date-range';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { MonitorRef, RolledUp } from '../results/ports';
import type { DomainEventPublisher } from '../shared/domain-events';
import type { ServiceLevelEvent } from '../../domain/service-levels/events';
import { token } from '../shared/token';

/** Objectives, always inside a tenant scope (a customer scope sees its customer's objectives only). */
export interface ObjectiveRepository {
  /** Stores a new objective and answers it with its id. */
  add(objective: ServiceLevelObjective, tx: Transaction): Promise<ServiceLevelObjective>;
  /** By public id (uuid) or integer id; null when missing or out of scope. */
  findByRef(scope: TenantScope, ref: string): Promise<ServiceLevelObjective | null>;
  /** `findByRef`, the same read on the caller's transaction (a read inside its work). */
  findByRefIn(scope: TenantScope, ref: string, tx: Transaction): Promise<ServiceLevelObjective | null>;
  /** Every objective of the scope, oldest first. */
  list(scope: TenantScope): Promise<ServiceLevelObjective[]>;
  /** Optimistic: an objective changed since it was read answers AppError('conflict'). */
  save(objective: ServiceLevelObjective, tx: Transaction): Promise<void>;
  remove(objective: ServiceLevelObjective, tx: Transaction): Promise<void>;
  /** Unscoped, for the burn evaluation: every objective with alerts on, or still marked burning. */
  alerting(): Promise<ServiceLevelObjective[]>;
  /**
   * Moves an objective's burn state from `from` to `to` only if it still is `from`: true for the one
   * caller that did (two workers evaluating at once tell a breach once).
   */
  claimBurn(objectiveId: number, from: BurnState, to: BurnState, at: Date, tx: Transaction): Promise<boolean>;
}
export const OBJECTIVE_REPOSITORY = token<ObjectiveRepository>('ObjectiveRepository');

/** What an objective's subject is given as: a website, or a customer and optionally one of its tags. */
export type SubjectInput = { type: 'website'; websiteId: string } | { type: 'customer'; customerId: string; tagId?: string | null };

/** The records an objective can cover, as the monitoring and tenancy contexts keep them. */
export interface ObjectiveSubjects {
  /** The subject inside the caller's scope, with the customer it belongs to; throws the not-found code of the record missing. */
  resolve(scope: TenantScope, input: SubjectInput): Promise<{ subject: ObjectiveSubject; customerId: number }>;
  /** `resolve` on the caller's transaction (a read inside its work). */
  resolveIn(scope: TenantScope, input: SubjectInput, tx: Transaction): Promise<{ subject: ObjectiveSubject; customerId: number }>;
  /** The monitors the subject covers now (a customer's present monitors, with the tag when named). */
  monitorsOf(organizationId: number, subject: ObjectiveSubject): Promise<MonitorRef[]>;
  /** The subject in words a status page visitor reads: the monitor's name, "All monitors" or "Monitors tagged …". */
  describe(organizationId: number, subject: ObjectiveSubject): Promise<string>;
}
export const OBJECTIVE_SUBJECTS = token<ObjectiveSubjects>('ObjectiveSubjects');

/** A stretch of one monitor to measure, from raw (or compact) results or from the rollups. */
export interface CoveragePiece {
  readonly monitorId: number;
  readonly range: DateRange;
  readonly source: 'raw' | 'rollup';
  /** How long one raw result stands for at most (coverageSeconds of the monitor's interval). */
  readonly capSeconds: number;
}

/** Good (up or degraded) and bad (down) lane-seconds. */
export interface GoodBad {
  readonly good: number;
  readonly bad: number;
}

/**
 * Reads the results the results context stores (raw rows, compact days, hourly and daily rollups)
 * for many monitors at once: the same storage and the same time weighting as the uptime figures.
 */
export interface ServiceLevelCoverage {
  rolledUp(): Promise<RolledUp | null>;
  /** When each monitor's first kept result was taken; monitors without any are left out. */
  firstResults(monitorIds: readonly number[]): Promise<Map<number, Date>>;
  /** Good and bad lane-seconds of each piece, in the pieces' order. */
  measure(pieces: readonly CoveragePiece[]): Promise<GoodBad[]>;
}
export const SERVICE_LEVEL_COVERAGE = token<ServiceLevelCoverage>('ServiceLevelCoverage');

/** A burn-rate breach or its end, for the notification channels. */
export type { ServiceLevelEvent as BurnEvent } from '../../domain/service-levels/events';

/** Publishes the burn events, inside the caller's transaction. */
export type ServiceLevelEvents = DomainEventPublisher<ServiceLevelEvent>;
export const SERVICE_LEVEL_EVENTS = token<ServiceLevelEvents>('ServiceLevelEvents');
