import { FakeTransaction } from './shared-fakes';
import type {
  LateResults,
  LocationChange,
  ProbeAssignments,
  ProbeInstance,
  ProbeMonitor,
  ProbeRegistry,
  SteadyBatch,
  SteadyProbeResults,
} from '../../../src/application/probes/ports';
import type { CheckSchedule, ScheduleChange } from '../../../src/application/scheduling/ports';
import type { WireProbeStatus } from '../../../src/application/probes/wire';
import type { Transaction } from '../../../src/application/shared/transaction';
import type { ResultStore, StoredResult } from '../../../src/application/results/ports';

/** Probe processes in memory, with the adapter's rules: an instance stays at its first location; touch answers registration. */
export class FakeProbeRegistry implements ProbeRegistry {
  readonly probes = new Map<string, ProbeInstance & { lastSeq: number; lastSeen: Date; status: WireProbeStatus | null }>();
  /** Keys revoked, or of a deleted location. */
  readonly retiredKeys = new Set<number>();
  /** Each lockStream and advance with the transaction it was handed (undefined: none). */
  readonly calls: Array<{ call: 'lockStream' | 'advance'; tx: Transaction | undefined }> = [];
  async greet(instance: ProbeInstance, _about: { name: string; version: string }, now: Date) {
    if (this.retiredKeys.has(instance.keyId)) return 'keyRetired' as const;
    const known = this.probes.get(instance.instanceId);
    if (known && known.locationId !== instance.locationId) return 'moved' as const;
    const lastSeq = known?.lastSeq ?? 0;
    this.probes.set(instance.instanceId, { ...instance, lastSeq, lastSeen: now, status: known?.status ?? null });
    return { lastSeq };
  }
  async touch(instanceId: string, locationId: number, now: Date) {
    const probe = this.probes.get(instanceId);
    if (!probe || probe.locationId !== locationId) return false;
    probe.lastSeen = now;
    return true;
  }
  async lockStream(instanceId: string, locationId: number, tx?: Transaction) {
    this.calls.push({ call: 'lockStream', tx });
    const probe = this.probes.get(instanceId);
    return probe && probe.locationId === locationId ? probe.lastSeq : null;
  }
  async advance(instanceId: string, lastSeq: number, status: WireProbeStatus, now: Date, tx?: Transaction) {
    this.calls.push({ call: 'advance', tx });
    const probe = this.probes.get(instanceId)!;
    probe.lastSeq = lastSeq;
    probe.status = status;
    probe.lastSeen = now;
  }
}

/**
 * Monitors by location, as `monitors.locations` and `check_schedule` would say (a monitor is scheduled
 * where it lists the location and is not paused); changes read from a schedule fake's log, where a
 * change names the locations `named` gives it (as the log's trigger records them).
 */
export class FakeProbeAssignments implements ProbeAssignments {
  readonly paused = new Set<number>();
  readonly named = new Map<number, string[]>();
  constructor(
    readonly monitors: (ProbeMonitor & { locations: string[] })[],
    private readonly log: { changes: readonly ScheduleChange[] } = { changes: [] },
  ) {}
  async monitorsAt(location: string, monitorIds: readonly number[]) {
    return new Map(
      this.monitors
        .filter((m) => this.scheduled(m.monitorId, location) && monitorIds.includes(m.monitorId))
        .map(({ locations: _l, ...m }) => [m.monitorId, m]),
    );
  }
  async changesAt(location: string, afterSeq: number, limit: number): Promise<LocationChange[]> {
    return this.log.changes
      .filter((c) => c.seq > afterSeq)
      .slice(0, limit)
      .map((c) => {
        const scheduled = this.scheduled(c.monitorId, location);
        return { ...c, ours: scheduled || (this.named.get(c.monitorId) ?? []).includes(location), gone: !scheduled };
      });
  }
  async monitorsOf(location: string, _settledMs: number) {
    return {
      monitors: [
        ...(
          await this.monitorsAt(
            location,
            this.monitors.map((m) => m.monitorId),
          )
        ).values(),
      ],
      through: this.log.changes.at(-1)?.seq ?? 0,
    };
  }
  async followAt(location: string, afterSeq: number, limit: number) {
    const page = this.log.changes.filter((c) => c.seq > afterSeq).slice(0, limit);
    const now = await this.monitorsAt(location, [...new Set(page.map((c) => c.monitorId))]);
    return {
      changes: page.map((c) => ({ monitorId: c.monitorId, monitor: now.get(c.monitorId) ?? null })),
      readThrough: page.at(-1)?.seq ?? afterSeq,
    };
  }
  private scheduled(monitorId: number, location: string): boolean {
    return !this.paused.has(monitorId) && this.monitors.some((m) => m.monitorId === monitorId && m.locations.includes(location));
  }
}

export class FakeLateResults implements LateResults {
  readonly rows: StoredResult[] = [];
  /** The transaction each store was handed (undefined: none). */
  readonly storedIn: Array<Transaction | undefined> = [];
  async store(results: readonly StoredResult[], tx?: Transaction) {
    this.storedIn.push(tx);
    this.rows.push(...results);
  }
}

/**
 * The steady statement's rules in memory: all or nothing, stored only while the stream is below the
 * batch, every worker renews, and every monitor is scheduled at the location. `failure` is thrown
 * (nothing written), as by a statement that fails.
 */
export class FakeSteadyProbeResults implements SteadyProbeResults {
  readonly batches: SteadyBatch[] = [];
  failure: Error | null = null;
  constructor(
    private readonly registry: FakeProbeRegistry,
    private readonly schedule: CheckSchedule,
    private readonly assignments: ProbeAssignments,
    private readonly results: Pick<ResultStore, 'appendMany'>,
  ) {}
  async store(batch: SteadyBatch) {
    if (this.failure) throw this.failure;
    const probe = this.registry.probes.get(batch.instanceId);
    if (!probe || probe.locationId !== batch.locationId || probe.lastSeq >= batch.firstSeq) return false;
    let renewed = 0;
    for (const worker of batch.workers)
      if (await this.schedule.renew(worker, batch.now, batch.aliveUntil, new FakeTransaction())) renewed += 1;
    const ids = [...new Set(batch.results.map((r) => r.monitorId))];
    if (renewed !== batch.workers.length || (await this.assignments.monitorsAt(batch.location, ids)).size !== ids.length) return false;
    await this.results.appendMany(batch.results, new FakeTransaction());
    await this.registry.advance(batch.instanceId, batch.lastSeq, batch.status, batch.now);
    this.batches.push(batch);
    return true;
  }
}
