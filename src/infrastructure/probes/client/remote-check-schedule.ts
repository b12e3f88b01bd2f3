import type { CheckRequest } from '../../../domain/checks/check-request';
import type {
  CheckPlanner,
  CheckSchedule,
  ClaimedCheck,
  ClaimInput,
  LocationLoad,
  PlannedCheck,
  ScheduleChange,
} from '../../../application/scheduling/ports';
import { changeFromWire, rowFromWire, rowToWire, type WireChange, type WirePlan, type WireRow } from '../../../application/probes/wire';
import type { ProbeApiClient, ServerClock } from './probe-api-client';

interface RowsAnswer {
  rows: WireRow[];
  plans: WirePlan[];
}

/** The generation a worker name ends with (`probe:<instance>:<generation>`). */
const generationOf = (workerId: string): number => Number(workerId.slice(workerId.lastIndexOf(':') + 1));

/**
 * The check schedule over the probe API: the dispatcher a probe runs is the engine's, and this is
 * its schedule. Rows come with what they run (one round trip), kept for the planner until it asks.
 * The server decides the location, the lease and the time: the probe's clock follows the server's.
 */
export class RemoteCheckSchedule implements CheckSchedule {
  private readonly plans = new Map<number, CheckRequest>();
  /** Monitors the last changes read said have no row at the location now (`gone`). */
  private readonly gone = new Set<number>();

  constructor(
    private readonly api: ProbeApiClient,
    private readonly clock: ServerClock,
    private readonly location: string,
  ) {}

  async register(workerId: string): Promise<number> {
    const sentAt = Date.now();
    const answer = await this.api.call<{ changesFrom: number; serverTime: number }>('/schedule/register', {
      generation: generationOf(workerId),
    });
    this.clock.observe(answer.serverTime, sentAt, Date.now());
    return answer.changesFrom;
  }

  /** A probe's renewal is its call to the server, which runs it as a heartbeat. */
  heartbeat(workerId: string): Promise<boolean> {
    return this.renew(workerId);
  }

  async renew(workerId: string): Promise<boolean> {
    const sentAt = Date.now();
    const answer = await this.api.call<{ alive: boolean; serverTime: number }>('/schedule/renew', { generation: generationOf(workerId) });
    this.clock.observe(answer.serverTime, sentAt, Date.now());
    return answer.alive;
  }

  async claim(input: ClaimInput): Promise<ClaimedCheck[]> {
    return this.rows(
      await this.api.call<RowsAnswer>('/schedule/claim', {
        generation: generationOf(input.workerId),
        limit: input.limit,
        adoptLimit: input.adopt?.limit ?? 0,
      }),
    );
  }

  /**
   * The held rows of changed monitors, read again; monitors the last changes read said are gone
   * from the location have none (the dispatcher drops them) and are not asked about.
   */
  async held(workerId: string, monitorIds: readonly number[]): Promise<ClaimedCheck[]> {
    const ask = monitorIds.filter((id) => !this.gone.has(id));
    if (ask.length === 0) return [];
    return this.rows(await this.api.call<RowsAnswer>('/schedule/held', { generation: generationOf(workerId), monitorIds: ask }));
  }

  async release(workerId: string, rows: readonly ClaimedCheck[]): Promise<void> {
    if (rows.length === 0) return;
    await this.api.call('/schedule/release', { generation: generationOf(workerId), rows: rows.map(rowToWire) });
  }

  async resign(workerId: string, rows: readonly ClaimedCheck[]): Promise<void> {
    await this.api.call('/schedule/resign', { generation: generationOf(workerId), rows: rows.map(rowToWire) });
  }

  async load(): Promise<LocationLoad[]> {
    return (await this.api.call<{ locations: LocationLoad[] }>('/schedule/load', { generation: 0 })).locations;
  }

  /**
   * The changes about the location's monitors, every page read; the server tells how far it read
   * past changes of other monitors, which ends the list as a change of no monitor (id 0, held by
   * no one), so the next read starts there.
   */
  async changesAfter(afterSeq: number): Promise<ScheduleChange[]> {
    const changes: ScheduleChange[] = [];
    this.gone.clear();
    let after = afterSeq;
    for (;;) {
      const page = await this.api.call<{ changes: WireChange[]; readThrough: number; more: boolean }>('/schedule/changes', { after });
      for (const change of page.changes) {
        if (change.gone === true) this.gone.add(change.monitorId);
        else this.gone.delete(change.monitorId);
      }
      changes.push(...page.changes.map(changeFromWire));
      const last = changes.at(-1)?.seq ?? afterSeq;
      if (page.readThrough > last) changes.push({ seq: page.readThrough, monitorId: 0, triggered: false, at: this.clock.now() });
      after = page.readThrough;
      if (!page.more) return changes;
    }
  }

  /** The server prunes its change log itself. */
  async prune(): Promise<void> {}

  async dueNow(): Promise<number> {
    throw new Error('A probe does not trigger checks');
  }

  async confirmAt(): Promise<void> {
    throw new Error('A probe does not log confirmations (the server does, with their results)');
  }

  /** The request the server sent with a row, taken once. */
  takePlan(monitorId: number): CheckRequest | undefined {
    const request = this.plans.get(monitorId);
    this.plans.delete(monitorId);
    return request;
  }

  private rows(answer: RowsAnswer): ClaimedCheck[] {
    for (const plan of answer.plans) this.plans.set(plan.monitorId, plan.request);
    return answer.rows.map((row) => rowFromWire(row, this.location));
  }
}

/**
 * Plans from what the server sent with the rows. Owners are the server's business (it takes them
 * from its own records when results come back), so planned checks carry none (0).
 */
export class RemoteCheckPlanner implements CheckPlanner {
  constructor(private readonly schedule: RemoteCheckSchedule) {}

  async plan(checks: readonly ClaimedCheck[]): Promise<{ planned: PlannedCheck[]; dropped: ClaimedCheck[] }> {
    const planned: PlannedCheck[] = [];
    const dropped: ClaimedCheck[] = [];
    for (const check of checks) {
      const request = this.schedule.takePlan(check.monitorId);
      if (request) planned.push({ check, request, organizationId: 0, customerId: 0 });
      else dropped.push(check);
    }
    return { planned, dropped };
  }
}
