import { AppError } from '../../domain/shared/app-error';
import type { Clock } from '../shared/clock';
import type { CheckPlanner, CheckSchedule, ClaimedCheck, LocationLoad } from '../scheduling/ports';
import type { ProbeAssignments, ProbeRegistry } from './ports';
import { assertRegistered, PROBE_LEASE_MS, probeWorker, type ProbeCaller } from './probe-identity';
import { changeToWire, rowFromWire, rowToWire, type WireChange, type WirePlan, type WireRow } from './wire';

/** Rows and what they run, as a probe receives them. */
export interface ProbeRows {
  readonly rows: WireRow[];
  readonly plans: WirePlan[];
}

/** Most rows a probe claims in one call. */
export const PROBE_CLAIM_LIMIT = 1_000;
/** Most changes read per call. */
const CHANGES_PAGE = 5_000;

/**
 * The check schedule as a probe uses it: the same schedule, leases and rebalancing as the engine's
 * workers, for a worker named after the probe's process and serving only its key's location. A
 * probe cannot name another worker, another location, or read changes of monitors it does not check.
 */
export class ProbeScheduleGateway {
  constructor(
    private readonly schedule: CheckSchedule,
    private readonly planner: CheckPlanner,
    private readonly registry: ProbeRegistry,
    private readonly assignments: ProbeAssignments,
    private readonly clock: Clock,
  ) {}

  /**
   * A probe process introduces itself (at start and after losing the server): its instance is
   * registered at its key's location, and it learns the lease and the highest result sequence the
   * server stored from it (everything up to there may leave its buffer).
   */
  async hello(
    caller: ProbeCaller,
    about: { name: string; version: string },
  ): Promise<{ lastSeq: number; leaseMs: number; serverTime: number }> {
    const now = this.clock.now();
    const greeted = await this.registry.greet(
      { instanceId: caller.instanceId, keyId: caller.keyId, locationId: caller.locationId },
      about,
      now,
    );
    if (greeted === 'keyRetired') throw new AppError('unauthorized');
    if (greeted === 'moved') throw new AppError('probeInstanceMoved');
    return { lastSeq: greeted.lastSeq, leaseMs: PROBE_LEASE_MS, serverTime: now.getTime() };
  }

  /** Registers the probe's worker (generation `generation`); answers the change sequence to read after. */
  async register(caller: ProbeCaller, generation: number): Promise<{ changesFrom: number; serverTime: number }> {
    const now = await this.seen(caller);
    const changesFrom = await this.schedule.register(
      probeWorker(caller.instanceId, generation),
      [caller.locationCode],
      this.aliveUntil(now),
      10_000,
    );
    return { changesFrom, serverTime: now.getTime() };
  }

  async renew(caller: ProbeCaller, generation: number): Promise<{ alive: boolean; serverTime: number }> {
    const now = await this.seen(caller);
    const alive = await this.schedule.heartbeat(probeWorker(caller.instanceId, generation), now, this.aliveUntil(now));
    return { alive, serverTime: now.getTime() };
  }

  async claim(caller: ProbeCaller, generation: number, limit: number, adoptLimit: number): Promise<ProbeRows> {
    const now = await this.seen(caller);
    const locations = [caller.locationCode];
    const rows = await this.schedule.claim({
      workerId: probeWorker(caller.instanceId, generation),
      locations,
      now,
      limit: Math.min(Math.max(0, limit), PROBE_CLAIM_LIMIT),
      adopt: { locations, limit: Math.min(Math.max(0, adoptLimit), PROBE_CLAIM_LIMIT) },
    });
    return this.withPlans(rows);
  }

  async held(caller: ProbeCaller, generation: number, monitorIds: readonly number[]): Promise<ProbeRows> {
    await this.seen(caller);
    const rows = await this.schedule.held(probeWorker(caller.instanceId, generation), monitorIds);
    return this.withPlans(rows.filter((row) => row.location === caller.locationCode));
  }

  async release(caller: ProbeCaller, generation: number, rows: readonly WireRow[]): Promise<void> {
    await this.seen(caller);
    await this.schedule.release(probeWorker(caller.instanceId, generation), this.ownRows(caller, rows));
  }

  async resign(caller: ProbeCaller, generation: number, rows: readonly WireRow[]): Promise<void> {
    await this.seen(caller);
    await this.schedule.resign(probeWorker(caller.instanceId, generation), this.ownRows(caller, rows));
  }

  async load(caller: ProbeCaller): Promise<LocationLoad[]> {
    return this.schedule.load([caller.locationCode], await this.seen(caller));
  }

  /**
   * Changes logged after `after` that are the location's business: about monitors scheduled there,
   * or that took a monitor away from there (paused, deleted, location removed: the probe holding it
   * must hear of it to stop checking it), each with `gone` when the monitor has no row at the
   * location now. With how far the log was read, so the probe reads on from there. One statement.
   */
  async changes(caller: ProbeCaller, after: number): Promise<{ changes: WireChange[]; readThrough: number; more: boolean }> {
    await this.seen(caller);
    const page = await this.assignments.changesAt(caller.locationCode, after, CHANGES_PAGE);
    return {
      changes: page.filter((c) => c.ours).map((c) => ({ ...changeToWire(c), ...(c.gone ? { gone: true } : {}) })),
      readThrough: page.at(-1)?.seq ?? after,
      more: page.length === CHANGES_PAGE,
    };
  }

  private async withPlans(rows: readonly ClaimedCheck[]): Promise<ProbeRows> {
    const { planned } = rows.length === 0 ? { planned: [] } : await this.planner.plan(rows);
    return {
      rows: rows.map(rowToWire),
      plans: planned.map(({ check, request }) => ({ monitorId: check.monitorId, request })),
    };
  }

  private ownRows(caller: ProbeCaller, rows: readonly WireRow[]): ClaimedCheck[] {
    return rows.map((row) => rowFromWire(row, caller.locationCode));
  }

  private aliveUntil(now: Date): Date {
    return new Date(now.getTime() + PROBE_LEASE_MS);
  }

  /** Every call notes the probe alive; a process not registered at the key's location is refused. */
  private async seen(caller: ProbeCaller): Promise<Date> {
    const now = this.clock.now();
    await assertRegistered(this.registry, caller, now);
    return now;
  }
}
