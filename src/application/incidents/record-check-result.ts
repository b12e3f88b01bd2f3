import type { AlertDecision } from '../../domain/incidents/alert-decision';
import type { AlertPolicy } from '../../domain/results/alert-policy';
import type { AlertState } from '../../domain/incidents/alert-state';
import { confirmationAt } from '../../domain/incidents/confirmation';
import type { CheckObservation } from '../../domain/results/check-status';
import { isDetailSample, keepsDetail } from '../../domain/results/detail-sampling';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { Incident } from '../../domain/incidents/incident';
import type { MonitorLookup, ResultStore, StoredResult } from '../results/ports';
import type { AlertStateRepository, IncidentRepository, LiveLocations, MaintenanceWindows } from './ports';
import { AlertEffects, tellAffected, type AlertActions } from './alert-actions';
import { BatchDependencies } from './batch-dependencies';
import { dependenciesFirst } from '../../domain/incidents/dependency-hold';
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

/** A result the alert rules judged (not a steady one): the monitor's state after its batch, its policy, and when to confirm it. */
export interface JudgedResult {
  readonly monitorId: number;
  readonly location: string;
  readonly state: AlertState;
  readonly policy: AlertPolicy;
  /** When the monitor should be checked again from every location to confirm this result (see confirmation.ts); null: at its interval. */
  readonly confirmAt: Date | null;
}

export interface RecordedBatch {
  /** Results stored on the fast path (steady up results). */
  readonly steady: number;
  /** One per result judged by the rules, in input order (results of deleted monitors left out). */
  readonly judged: readonly JudgedResult[];
  /**
   * Monitors to check again now from every location: those a root that recovered in this batch held
   * back (dependencyDown). Their failures were confirmed: one still failing opens its own incident at
   * that result, one that recovered with its root opens nothing.
   */
  readonly recheck: readonly { monitorId: number; at: Date }[];
}

export interface RecordCheckResultOutcome {
  /** false when the monitor no longer exists (the result is dropped). */
  readonly recorded: boolean;
  readonly decisions: AlertDecision['kind'][];
  /** Id of the monitor's open automatic incident after this result, if any. */
  readonly openIncidentId: number | null;
}

/**
 * The check engine's entry point: stores results and runs the alert rules, a whole batch at a time
 * with a fixed number of set-based statements whatever its share of failures. The judged results'
 * monitors are locked together (their alert-state rows, in monitor order) in one transaction, so
 * results that several locations report at the same moment are judged one after the other and
 * cannot open two incidents; the rules decide in memory (AlertState), and the results, incidents,
 * timeline, events and states then commit together.
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
    /** Read once per judged batch (give it a short cache: CachedLiveLocations); steady results need none. */
    private readonly liveness: LiveLocations,
    private readonly options: { detailSampleMinutes: number },
    /** Remembers steady monitors between batches while it follows their changes (otherwise every batch reads). */
    private readonly memo: SteadyMemo = new SteadyMemo(),
  ) {}

  /**
   * Many results at once (the check engine's batches). Steady up results (see AlertState.isSteady),
   * known from the memo or from one read of the states, need no rules and no lock; every other
   * result is judged by the rules in one transaction (`judgeAll`). Both kinds are stored by one
   * statement. Answers how many were steady, and the judged ones with their monitors' states.
   */
  async executeMany(inputs: readonly RecordCheckResultInput[]): Promise<RecordedBatch> {
    const { steady, others } = await this.split(inputs);
    const steadyRows = this.rowsOf(steady);
    if (others.length === 0) {
      await this.results.appendMany(steadyRows);
      return { steady: steady.length, judged: [], recheck: [] };
    }
    const { judgements, recovered } = await this.judgeAll(others, steadyRows);
    const now = this.clock.now();
    const released = recovered.length === 0 ? [] : await this.states.heldBy(recovered);
    return {
      steady: steady.length,
      judged: judgements.flatMap((outcome) => (outcome.judged ? [outcome.judged] : [])),
      recheck: released.map((seed) => ({ monitorId: seed.monitorId, at: now })),
    };
  }

  /**
   * The rows to store for these results when every one of them is steady (known from the memo or
   * from one read of the states), else null: a writer that stores a steady batch with a statement of
   * its own (a probe's, with its sequence) takes it; any other batch goes through `executeMany`.
   */
  async steadyRows(inputs: readonly RecordCheckResultInput[]): Promise<StoredResult[] | null> {
    const { steady, others } = await this.split(inputs);
    return others.length === 0 ? this.rowsOf(steady) : null;
  }

  /** Steady up results (see AlertState.isSteady), from the memo or one read of the states, and the others. */
  private async split(inputs: readonly RecordCheckResultInput[]) {
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
    return { steady, others };
  }

  private rowsOf(steady: readonly RecordCheckResultInput[]): StoredResult[] {
    return steady.map(({ monitorId, location, intervalMs, result }): StoredResult => ({
      ...storedOf(monitorId, location, result),
      detail: isDetailSample({ monitorId, checkedAt: result.checkedAt, intervalMs }, this.options.detailSampleMinutes)
        ? detailOf(result)
        : null,
    }));
  }

  /** One result (the same path as a batch of one). */
  async execute(input: RecordCheckResultInput): Promise<RecordCheckResultOutcome> {
    const [{ judged: _judged, ...outcome }] = (await this.judgeAll([input], [])).judgements as [Judgement];
    return outcome;
  }

  /**
   * Judges results in input order (a monitor's results one after the other, each location's older
   * results ignored by the rules), in one transaction: the profiles and maintenance of every monitor
   * are read first (one statement each), the live locations known (at most one read, usually
   * none: see CachedLiveLocations; a location reporting in this batch is live too), then the states are locked and the open incidents read
   * (three), the rules decide in memory, and the results (with `alsoStore`), incidents, timeline,
   * events and states are written (one statement each, only those with something to write).
   */
  private async judgeAll(
    inputs: readonly RecordCheckResultInput[],
    alsoStore: readonly StoredResult[],
  ): Promise<{ judgements: Judgement[]; recovered: number[] }> {
    for (const input of inputs) this.memo.forget(input.monitorId);
    const profiles = await this.monitors.alertProfiles([...new Set(inputs.map((i) => i.monitorId))]);
    const known = inputs.filter((input) => profiles.has(input.monitorId));
    const suppressed = await this.maintenance.suppressedMany(known.map((i) => ({ monitorId: i.monitorId, at: i.result.checkedAt })));
    const suppressedOf = new Map(known.map((input, k) => [input, suppressed[k]!]));
    const live: ReadonlySet<string> = new Set([...(await this.liveness.live(this.clock.now())), ...known.map((i) => i.location)]);
    const dependencies = await BatchDependencies.load(profiles, this.states);
    return this.transactions.run(async () => {
      const seeds = [
        ...new Map(
          known.map((input) => [
            input.monitorId,
            {
              monitorId: input.monitorId,
              organizationId: input.organizationId,
              customerId: input.customerId,
              checkIntervalSeconds: profiles.get(input.monitorId)!.monitor.checkIntervalSeconds,
            },
          ]),
        ).values(),
      ];
      const states = await this.states.lockMany(seeds, this.clock.now());
      const failingBefore = [...states.values()].filter((state) => state.isFailing);
      const incidents = await this.incidents.findManyById(
        [...states.values()].flatMap((state) => (state.openIncidentId === null ? [] : [state.openIncidentId])),
      );
      let downsLeft = known.filter((input) => input.result.status === 'down').length;
      const effects = new AlertEffects(
        (count) => this.incidents.reserveIds(count),
        () => downsLeft,
      );
      const stored: StoredResult[] = [...alsoStore];
      const outcomes = new Map<RecordCheckResultInput, Judgement>();
      // A dependency is judged before its dependents, so it holds them back whichever result came first.
      for (const input of dependenciesFirst(
        known,
        (i) => i.monitorId,
        (id) => profiles.get(id)?.dependsOn ?? [],
      )) {
        const { monitor, policy, dependsOn } = profiles.get(input.monitorId)!;
        const state = states.get(input.monitorId)!;
        const { result, location } = input;
        state.followInterval(monitor.checkIntervalSeconds);
        const keepDetail = keepsDetail(
          result.status,
          state.location(location)?.status,
          {
            monitorId: input.monitorId,
            checkedAt: result.checkedAt,
            intervalMs: input.intervalMs,
          },
          this.options.detailSampleMinutes,
        );
        stored.push({ ...storedOf(input.monitorId, location, result), detail: keepDetail ? detailOf(result) : null });
        let incident: Incident | null = state.openIncidentId === null ? null : (incidents.get(state.openIncidentId) ?? null);
        if (incident && !incident.isOpen) incident = null;
        if (!incident) state.incidentClosedElsewhere();
        const previousStatus = state.location(location)?.status ?? null;
        const suppressedNow = suppressedOf.get(input)!;
        const decisions = state.observe(
          { location, status: result.status, reasonCode: result.reasonCode, checkedAt: result.checkedAt },
          policy,
          {
            suppressed: suppressedNow,
            remindersMuted: incident?.status === 'acknowledged',
            live,
            dependencyRoot: dependencies.rootOf(dependsOn, states),
          },
        );
        for (const decision of decisions) {
          incident = await this.actions.carryOut(decision, { state, incident, monitor, location, result }, effects);
        }
        if (incident) incidents.set(incident.id, incident);
        if (result.status === 'down') downsLeft -= 1;
        outcomes.set(input, {
          recorded: true,
          decisions: decisions.map((d) => d.kind),
          openIncidentId: state.openIncidentId,
          judged: {
            monitorId: input.monitorId,
            location,
            state,
            policy,
            confirmAt: confirmationAt({
              state,
              policy,
              location,
              status: result.status,
              checkedAt: result.checkedAt,
              previousStatus,
              suppressed: suppressedNow,
            }),
          },
        });
      }
      await this.results.appendMany(stored);
      await this.states.saveMany([...states.values()]);
      if (effects.opened.length > 0) tellAffected(effects, await this.states.heldCounts(effects.opened.map((i) => i.monitorId)));
      await this.actions.persist(effects);
      return {
        judgements: inputs.map((input) => outcomes.get(input) ?? NOT_RECORDED),
        // Roots that stopped failing: the monitors they held are checked again at once (RecordedBatch.recheck).
        recovered: failingBefore.filter((state) => !state.isFailing).map((state) => state.monitorId),
      };
    });
  }
}

type Judgement = RecordCheckResultOutcome & { readonly judged: JudgedResult | null };

/** The monitor is gone: its result is dropped. */
const NOT_RECORDED: Judgement = { recorded: false, decisions: [], openIncidentId: null, judged: null };

/** A result as stored, its detail aside (the engine's recording and a probe's late results alike). */
export const storedOf = (monitorId: number, location: string, result: CheckObservation): Omit<StoredResult, 'detail'> => ({
  monitorId,
  location,
  status: result.status,
  reasonCode: result.reasonCode,
  checkedAt: result.checkedAt,
  responseTimeMs: responseTimeMsOf(result),
});
const responseTimeMsOf = (result: CheckObservation) => (result.timings.totalMs === null ? null : Math.round(result.timings.totalMs));
export const detailOf = (result: CheckObservation) => ({ message: result.message, timings: result.timings, evidence: result.evidence });
