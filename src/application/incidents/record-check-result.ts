import type { AlertDecision } from '../../domain/incidents/alert-decision';
import type { AlertPolicy } from '../../domain/results/alert-policy';
import type { AlertState } from '../../domain/incidents/alert-state';
import { judgeBatch, type BatchObservation, type Judgement as DomainJudgement } from '../../domain/incidents/batch-judgement';
import type { CheckObservation } from '../../domain/results/check-status';
import { isDetailSample } from '../../domain/results/detail-sampling';
import { detailOf, storedOf } from '../../domain/results/result-row';
import type { Clock } from '../shared/clock';
import type { Transaction, TransactionRunner } from '../shared/transaction';
import type { MonitorLookup, ResultStore, StoredResult } from '../results/ports';
import type { AlertStateRepository, AlertStateSeed, IncidentRepository, LiveLocations, MaintenanceWindows } from './ports';
import type { AlertActions } from './alert-actions';
import { outsideDependencies } from './batch-dependencies';
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
 * cannot open two incidents. The domain decides (domain/incidents/batch-judgement.ts: the alert
 * rules over the batch, in memory, with no I/O); this use case loads what it needs and writes its
 * decisions (results, states, incidents, timeline, events, routing) in that one transaction, each
 * write port handed the transaction.
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
  async executeMany(inputs: readonly RecordCheckResultInput[], tx: Transaction): Promise<RecordedBatch> {
    const { steady, others } = await this.split(inputs);
    const steadyRows = this.rowsOf(steady);
    if (others.length === 0) {
      await this.results.appendMany(steadyRows, tx);
      return { steady: steady.length, judged: [], recheck: [] };
    }
    const { judgements, recovered } = await this.judgeAll(others, steadyRows, tx);
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

  /**
   * The rows to store for these results when the memo alone knows every one of them steady (an up
   * result of a monitor and location it remembers), else null, having read nothing: the check
   * engine stores such a batch with its worker's renewal in one statement, and sends any other
   * batch through `executeMany`, which reads the states it does not know once.
   */
  knownSteadyRows(inputs: readonly RecordCheckResultInput[]): StoredResult[] | null {
    for (const input of inputs) {
      if (input.result.status !== 'up' || !this.memo.knows(input.monitorId, input.location)) return null;
    }
    return this.rowsOf(inputs);
  }

  /**
   * Steady up results (see AlertState.isSteady), from the memo or one read of the states, and the
   * others. Only an up result can be steady, so the read asks only for the up results the memo does
   * not know: a storm's failures go to the rules without reading their states twice.
   */
  private async split(inputs: readonly RecordCheckResultInput[]) {
    const steady = new Set<RecordCheckResultInput>();
    const unknown: RecordCheckResultInput[] = [];
    for (const input of inputs) {
      if (input.result.status !== 'up') continue;
      if (this.memo.knows(input.monitorId, input.location)) steady.add(input);
      else unknown.push(input);
    }
    const watch = this.memo.watch();
    try {
      const states = unknown.length === 0 ? new Map() : await this.states.peek([...new Set(unknown.map((i) => i.monitorId))]);
      for (const input of unknown) {
        if (states.get(input.monitorId)?.isSteady(input.location, input.result.status)) {
          steady.add(input);
          watch.remember(input.monitorId, input.location);
        }
      }
    } finally {
      watch.close();
    }
    // Both in the batch's order (a monitor's results are judged in the order they came).
    return { steady: inputs.filter((input) => steady.has(input)), others: inputs.filter((input) => !steady.has(input)) };
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
    const [{ judged: _judged, ...outcome }] = (await this.transactions.run((tx) => this.judgeAll([input], [], tx))).judgements as [
      Judgement,
    ];
    return outcome;
  }

  /**
   * Judges results in the caller's transaction (`tx`): what the rules need is read first (the profiles and
   * maintenance of every monitor, one statement each; the live locations, at most one read, usually
   * none: see CachedLiveLocations; a location reporting in this batch is live too; the dependencies
   * outside the batch), then, in the transaction, the states are locked and their open incidents
   * read, the domain decides (judgeBatch: no I/O, asking once for incident ids when the batch opens
   * any), and its decisions are written: results (with `alsoStore`), states, incidents, timeline,
   * events, routing (one statement each, only those with something to write).
   */
  private async judgeAll(
    inputs: readonly RecordCheckResultInput[],
    alsoStore: readonly StoredResult[],
    tx: Transaction,
  ): Promise<{ judgements: Judgement[]; recovered: number[] }> {
    for (const input of inputs) this.memo.forget(input.monitorId);
    const loaded = await this.load(inputs, tx);
    const now = this.clock.now();
    const states = await this.states.lockMany(loaded.seeds, now, tx);
    const incidents = await this.incidents.findManyById(
      [...states.values()].flatMap((state) => (state.openIncidentId === null ? [] : [state.openIncidentId])),
      tx,
    );
    const run = judgeBatch({ ...loaded.facts, states, incidents, detailSampleMinutes: this.options.detailSampleMinutes, now });
    let step = run.next();
    while (!step.done) step = run.next(await this.actions.newIncidents(step.value.count, tx));
    const decisions = step.value;
    await this.results.appendMany([...alsoStore, ...decisions.results], tx);
    await this.states.saveMany(decisions.states, tx);
    const { effects } = decisions;
    if (effects.opened.length > 0)
      effects.tellAffected(
        await this.states.heldCounts(
          effects.opened.map((i) => i.monitorId),
          tx,
        ),
      );
    await this.actions.persist(effects, tx);
    return {
      judgements: inputs.map((input) => {
        const observation = loaded.observationOf.get(input);
        const judgement = observation && decisions.judgements.get(observation);
        return judgement ? judgedOf(input, judgement) : NOT_RECORDED;
      }),
      recovered: decisions.recovered,
    };
  }

  /** What the judgement reads before it locks (one statement each, some usually none); the monitors on the batch's `tx`. */
  private async load(inputs: readonly RecordCheckResultInput[], tx: Transaction) {
    const profiles = await this.monitors.alertProfilesIn([...new Set(inputs.map((i) => i.monitorId))], tx);
    const known = inputs.filter((input) => profiles.has(input.monitorId));
    const suppressed = await this.maintenance.suppressedMany(known.map((i) => ({ monitorId: i.monitorId, at: i.result.checkedAt })));
    const live: ReadonlySet<string> = new Set([...(await this.liveness.live(this.clock.now())), ...known.map((i) => i.location)]);
    const outside = await outsideDependencies(profiles, this.states);
    const observationOf = new Map<RecordCheckResultInput, BatchObservation>(
      known.map((input, k) => [
        input,
        {
          monitorId: input.monitorId,
          location: input.location,
          intervalMs: input.intervalMs,
          result: input.result,
          suppressed: suppressed[k]!,
        },
      ]),
    );
    const seeds = new Map<number, AlertStateSeed>();
    for (const { monitorId, organizationId, customerId } of known) {
      seeds.set(monitorId, {
        monitorId,
        organizationId,
        customerId,
        checkIntervalSeconds: profiles.get(monitorId)!.monitor.checkIntervalSeconds,
      });
    }
    return {
      seeds: [...seeds.values()],
      observationOf,
      facts: { observations: [...observationOf.values()], profiles, live, outsideDependencies: outside },
    };
  }
}

type Judgement = RecordCheckResultOutcome & { readonly judged: JudgedResult | null };

/** The monitor is gone: its result is dropped. */
const NOT_RECORDED: Judgement = { recorded: false, decisions: [], openIncidentId: null, judged: null };

const judgedOf = (input: RecordCheckResultInput, judgement: DomainJudgement): Judgement => ({
  recorded: true,
  decisions: judgement.decisions,
  openIncidentId: judgement.openIncidentId,
  judged: {
    monitorId: input.monitorId,
    location: input.location,
    state: judgement.state,
    policy: judgement.policy,
    confirmAt: judgement.confirmAt,
  },
});

/** A result as stored, its detail aside, and its detail (the engine's recording and a probe's late results alike). */
export { detailOf, storedOf };
