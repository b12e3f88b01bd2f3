import type { AlertDecision } from '../../domain/incidents/alert-decision';
import type { AlertPolicy } from '../../domain/incidents/alert-policy';
import type { AlertState } from '../../domain/incidents/alert-state';
import type { CheckObservation } from '../../domain/results/check-status';
import { isDetailSample, keepsDetail } from '../../domain/results/detail-sampling';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { MonitorLookup, ResultStore } from '../results/ports';
import type { AlertStateRepository, IncidentRepository, MaintenanceWindows } from './ports';
import type { AlertActions } from './alert-actions';
import { SteadyMemo } from './steady-memo';

export interface RecordCheckResultInput {
  readonly monitorId: number;
  readonly organizationId: number;
  readonly customerId: number;
  /** Location code the check ran from. */
  readonly location: string;
  /** The monitor's check interval (detail sampling keeps one up result per period and location). */
  readonly intervalMs: number;
  readonly result: CheckObservation;
}

/** A result the alert rules judged (not a steady one): the monitor's state after its batch, and its policy. */
export interface JudgedResult {
  readonly monitorId: number;
  readonly location: string;
  readonly state: AlertState;
  readonly policy: AlertPolicy;
}

export interface RecordedBatch {
  /** Results stored on the fast path (steady up results). */
  readonly steady: number;
  /** One per result judged by the rules, in input order (results of deleted monitors left out). */
  readonly judged: readonly JudgedResult[];
}

export interface RecordCheckResultOutcome {
  /** false when the monitor no longer exists (the result is dropped). */
  readonly recorded: boolean;
  readonly decisions: AlertDecision['kind'][];
  /** Id of the monitor's open automatic incident after this result, if any. */
  readonly openIncidentId: number | null;
}

/**
 * The check engine's entry point: stores one result of one location and runs the alert rules.
 * Everything happens in one transaction holding the monitor's alert-state row lock, so results that
 * several locations report at the same moment are judged one after the other and cannot open two
 * incidents; the incident, its timeline and its events commit together.
 */
export class RecordCheckResult {
  constructor(
    private readonly monitors: MonitorLookup,
    private readonly results: ResultStore,
    private readonly states: AlertStateRepository,
    private readonly incidents: IncidentRepository,
    private readonly maintenance: MaintenanceWindows,
    private readonly actions: AlertActions,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    private readonly options: { detailSampleMinutes: number },
    /** Remembers steady monitors between batches while it follows their changes (otherwise every batch reads). */
    private readonly memo: SteadyMemo = new SteadyMemo(),
  ) {}

  /**
   * Many results at once (the check engine's batches): steady up results (see AlertState.isSteady),
   * detail samples among them, are stored in one statement without taking any lock; every other
   * result goes through `execute`, one at a time, in monitor order. Only the states of monitors
   * the memo does not know as steady are read. Answers how many took the fast path.
   */
  async executeMany(inputs: readonly RecordCheckResultInput[]): Promise<RecordedBatch> {
    const steady: RecordCheckResultInput[] = [];
    const unknown: RecordCheckResultInput[] = [];
    for (const input of inputs) {
      (input.result.status === 'up' && this.memo.knows(input.monitorId, input.location) ? steady : unknown).push(input);
    }
    const others: RecordCheckResultInput[] = [];
    const watch = this.memo.watch();
    try {
      const states = unknown.length === 0 ? new Map() : await this.states.peek([...new Set(unknown.map((i) => i.monitorId))]);
      for (const input of unknown) {
        if (states.get(input.monitorId)?.isSteady(input.location, input.result.status)) {
          steady.push(input);
          watch.remember(input.monitorId, input.location);
        } else {
          others.push(input);
        }
      }
    } finally {
      watch.close();
    }
    await this.results.appendMany(steady.map(({ monitorId, location, intervalMs, result }) => ({
      monitorId, location, status: result.status, reasonCode: result.reasonCode, checkedAt: result.checkedAt,
      responseMs: responseMsOf(result),
      detail: isDetailSample({ monitorId, checkedAt: result.checkedAt, intervalMs }, this.options.detailSampleMinutes) ? detailOf(result) : null,
    })));
    const judged: JudgedResult[] = [];
    for (const input of others) {
      const outcome = await this.judge(input);
      if (outcome.judged) judged.push(outcome.judged);
    }
    return { steady: steady.length, judged };
  }

  async execute(input: RecordCheckResultInput): Promise<RecordCheckResultOutcome> {
    const { judged: _judged, ...outcome } = await this.judge(input);
    return outcome;
  }

  private async judge(input: RecordCheckResultInput): Promise<RecordCheckResultOutcome & { judged: JudgedResult | null }> {
    this.memo.forget(input.monitorId);
    const profile = await this.monitors.alertProfile(input.monitorId);
    if (!profile) return { recorded: false, decisions: [], openIncidentId: null, judged: null };
    const { result, location } = input;
    const suppressed = await this.maintenance.isSuppressed(input.monitorId, result.checkedAt);
    return this.transactions.run(async () => {
      const state = await this.states.lock({
        monitorId: input.monitorId, organizationId: input.organizationId, customerId: input.customerId,
        checkIntervalSeconds: profile.monitor.checkIntervalSeconds,
      }, this.clock.now());
      state.checkIntervalSeconds = profile.monitor.checkIntervalSeconds;
      const keepDetail = keepsDetail(result.status, state.location(location)?.status, {
        monitorId: input.monitorId, checkedAt: result.checkedAt, intervalMs: input.intervalMs,
      }, this.options.detailSampleMinutes);
      await this.results.append({
        monitorId: input.monitorId, location, status: result.status, reasonCode: result.reasonCode,
        responseMs: responseMsOf(result), detail: keepDetail ? detailOf(result) : null, checkedAt: result.checkedAt,
      });
      let incident = state.openIncidentId === null ? null : await this.incidents.findById(state.openIncidentId);
      if (incident && !incident.isOpen) incident = null;
      if (!incident) state.openIncidentId = null;
      const decisions = state.observe(
        { location, status: result.status, reasonCode: result.reasonCode, checkedAt: result.checkedAt },
        profile.policy,
        { suppressed, remindersMuted: incident?.status === 'acknowledged' },
      );
      for (const decision of decisions) {
        incident = await this.actions.carryOut(decision, { state, incident, monitor: profile.monitor, location, result });
      }
      await this.states.save(state);
      return {
        recorded: true, decisions: decisions.map((d) => d.kind), openIncidentId: state.openIncidentId,
        judged: { monitorId: input.monitorId, location, state, policy: profile.policy },
      };
    });
  }
}

const responseMsOf = (result: CheckObservation) => (result.timings.totalMs === null ? null : Math.round(result.timings.totalMs));
const detailOf = (result: CheckObservation) => ({ message: result.message, timings: result.timings, evidence: result.evidence });
