import { confirmationsOf } from '../../domain/incidents/confirmation';
import { isDetailSample } from '../../domain/results/detail-sampling';
import { AppError } from '../../domain/shared/app-error';
import type { Clock } from '../shared/clock';
import type { Transaction, TransactionRunner } from '../shared/transaction';
import { detailOf, storedOf, type RecordCheckResult, type RecordCheckResultInput } from '../incidents/record-check-result';
import type { StoredResult } from '../results/ports';
import type { CheckSchedule } from '../scheduling/ports';
import { observationOf } from '../scheduling/record-outcomes';
import type { LateResults, ProbeAssignments, ProbeMonitor, ProbeRegistry, SteadyProbeResults } from './ports';
import type { LocationMonitors } from './location-monitors';
import { PROBE_LEASE_MS, isProbeWorkerOf, type ProbeCaller } from './probe-identity';
import type { ReportedResult, WireProbeStatus } from './wire';

export interface ReceivedResults {
  /** The highest sequence stored from this probe: everything up to it may leave the probe's buffer. */
  readonly lastSeq: number;
  /** Judged by the alert rules as the engine's results are. */
  readonly recorded: number;
  /** Stored as history only: their worker's lease had lapsed (the probe was cut off) or they were older than `timelyMs`. */
  readonly late: number;
  /** Already stored (a batch sent again). */
  readonly duplicates: number;
  /** About monitors not scheduled at the location now (paused, deleted or moved meanwhile): dropped. */
  readonly refused: number;
  /** Older than the raw window (`keepMs`): dropped. */
  readonly tooOld: number;
  /** Dated more than PROBE_CLOCK_SKEW_MS ahead of the service's clock: dropped (never stored, never a partition made for them). */
  readonly tooNew: number;
  /** Worker names the server no longer takes as alive: the probe forgets their rows and registers anew. */
  readonly fenced: string[];
}

/**
 * How far ahead of the service's clock a probe's result may be dated. A probe runs on the service's
 * clock (it measures the offset from every answer), so its results are at most a round trip ahead;
 * anything later is a broken clock or a forged result, and is dropped.
 */
export const PROBE_CLOCK_SKEW_MS = 60_000;

export interface ProbeResultSettings {
  /** Results older than this are history, not news: they are stored without running the alert rules. */
  readonly timelyMs: number;
  /** Results older than this are dropped (the raw results window: older hours are already compacted). */
  readonly keepMs: number;
  readonly detailSampleMinutes: number;
}

/**
 * Stores a batch of a probe's results exactly once, in one transaction: the probe's stream row is
 * locked and results at or below its sequence are skipped (a batch sent twice), results of a live
 * worker go through the same recording as the engine's (alert rules, confirmations), and results
 * of a lapsed worker or older than `timelyMs` are stored as late history (their closed hours'
 * rollups are redone) without raising stale alerts. Owners come from the server, never the probe.
 */
export class ReceiveProbeResults {
  constructor(
    private readonly registry: ProbeRegistry,
    private readonly assignments: ProbeAssignments,
    private readonly schedule: CheckSchedule,
    private readonly record: RecordCheckResult,
    private readonly late: LateResults,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
    private readonly settings: ProbeResultSettings,
    /** The steady way (a batch of steady results in one statement, monitors from memory); without it every batch takes the long way. */
    private readonly steady?: { readonly monitors: LocationMonitors; readonly store: SteadyProbeResults },
  ) {}

  async execute(caller: ProbeCaller, results: readonly ReportedResult[], status: WireProbeStatus): Promise<ReceivedResults> {
    const ordered = [...results].sort((a, b) => a.seq - b.seq);
    const steady = await this.storeSteady(caller, ordered, status);
    if (steady) return steady;
    const monitorIds = [...new Set(ordered.map((r) => r.monitorId))];
    const monitors = await this.assignments.monitorsAt(caller.locationCode, monitorIds);
    this.steady?.monitors.learn(caller.locationCode, monitorIds, monitors);
    return this.tx.run(async (tx) => {
      const now = this.clock.now();
      // Only a process registered at the key's location speaks for its stream (another key's process is unknown here).
      const lastSeq = await this.registry.lockStream(caller.instanceId, caller.locationId, tx);
      if (lastSeq === null) throw new AppError('probeNotRegistered');
      const fresh = ordered.filter((r, i) => r.seq > lastSeq && (i === 0 || r.seq !== ordered[i - 1]!.seq));
      const alive = await this.aliveWorkers(caller, fresh, now, tx);
      const timely: RecordCheckResultInput[] = [];
      const late: StoredResult[] = [];
      let refused = 0;
      let tooOld = 0;
      let tooNew = 0;
      for (const wire of fresh) {
        const monitor = monitors.get(wire.monitorId);
        if (!monitor || !isProbeWorkerOf(caller.instanceId, wire.worker)) {
          refused += 1;
          continue;
        }
        const input = this.inputOf(caller, monitor, wire);
        const age = now.getTime() - input.result.checkedAt.getTime();
        if (age < -PROBE_CLOCK_SKEW_MS) tooNew += 1;
        else if (age > this.settings.keepMs) tooOld += 1;
        else if (alive.has(wire.worker) && age <= this.settings.timelyMs) timely.push(input);
        else late.push(this.storedOf(input));
      }
      if (timely.length > 0) {
        const { judged, recheck } = await this.record.executeMany(timely, tx);
        await this.schedule.confirmAt([...confirmationsOf(judged), ...recheck], tx);
      }
      if (late.length > 0) await this.late.store(late, tx);
      const newLast = Math.max(lastSeq, ordered.at(-1)?.seq ?? 0);
      await this.registry.advance(caller.instanceId, newLast, status, now, tx);
      return {
        lastSeq: newLast,
        recorded: timely.length,
        late: late.length,
        duplicates: ordered.length - fresh.length,
        refused,
        tooOld,
        tooNew,
        fenced: [...new Set(fresh.map((r) => r.worker))].filter((w) => !alive.has(w)),
      };
    });
  }

  /**
   * The steady way: a batch whose every result is timely, of this probe's worker, about a monitor
   * the location's view holds, in order once, and steady (no state change: RecordCheckResult.steadyRows)
   * is stored with the probe's sequence by one statement, which checks the stream, the workers and
   * every monitor's schedule row itself. Null (nothing written) sends the batch the long way.
   */
  private async storeSteady(
    caller: ProbeCaller,
    ordered: readonly ReportedResult[],
    status: WireProbeStatus,
  ): Promise<ReceivedResults | null> {
    if (!this.steady || ordered.length === 0) return null;
    const now = this.clock.now();
    const monitors = await this.steady.monitors.monitorsAt(caller.locationCode, [...new Set(ordered.map((r) => r.monitorId))]);
    const inputs: RecordCheckResultInput[] = [];
    for (let i = 0; i < ordered.length; i++) {
      const wire = ordered[i]!;
      const monitor = monitors.get(wire.monitorId);
      if (!monitor || !isProbeWorkerOf(caller.instanceId, wire.worker) || (i > 0 && wire.seq === ordered[i - 1]!.seq)) return null;
      const age = now.getTime() - wire.result.checkedAt.getTime();
      if (age < -PROBE_CLOCK_SKEW_MS || age > this.settings.timelyMs) return null;
      inputs.push(this.inputOf(caller, monitor, wire));
    }
    const rows = await this.record.steadyRows(inputs);
    if (!rows) return null;
    const stored = await this.steady.store.store({
      instanceId: caller.instanceId,
      locationId: caller.locationId,
      location: caller.locationCode,
      firstSeq: ordered[0]!.seq,
      lastSeq: ordered.at(-1)!.seq,
      workers: [...new Set(ordered.map((r) => r.worker))],
      now,
      aliveUntil: new Date(now.getTime() + PROBE_LEASE_MS),
      status,
      results: rows,
    });
    if (!stored) return null;
    const lastSeq = ordered.at(-1)!.seq;
    return { lastSeq, recorded: rows.length, late: 0, duplicates: 0, refused: 0, tooOld: 0, tooNew: 0, fenced: [] };
  }

  /** Renews each worker named in the batch (inside the transaction, as the engine's recording does): those still alive. */
  private async aliveWorkers(caller: ProbeCaller, results: readonly ReportedResult[], now: Date, tx: Transaction): Promise<Set<string>> {
    const alive = new Set<string>();
    for (const worker of new Set(results.map((r) => r.worker))) {
      if (!isProbeWorkerOf(caller.instanceId, worker)) continue;
      if (await this.schedule.renew(worker, now, new Date(now.getTime() + PROBE_LEASE_MS), tx)) alive.add(worker);
    }
    return alive;
  }

  private inputOf(caller: ProbeCaller, monitor: ProbeMonitor, wire: ReportedResult): RecordCheckResultInput {
    return {
      monitorId: monitor.monitorId,
      organizationId: monitor.organizationId,
      customerId: monitor.customerId,
      location: caller.locationCode,
      intervalMs: monitor.intervalMs,
      result: observationOf(wire.result),
    };
  }

  /** Late results keep their detail as the engine's do: every failure, and a sample of up results. */
  private storedOf({ monitorId, location, intervalMs, result }: RecordCheckResultInput): StoredResult {
    const keep =
      result.status !== 'up' || isDetailSample({ monitorId, checkedAt: result.checkedAt, intervalMs }, this.settings.detailSampleMinutes);
    return { ...storedOf(monitorId, location, result), detail: keep ? detailOf(result) : null };
  }
}
