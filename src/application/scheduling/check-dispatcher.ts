import { latenessMs, nextSlotAfter, slotAfterCompletion } from '../../domain/scheduling/check-slot';
import { LatenessHistogram } from '../../domain/scheduling/lateness-histogram';
import { TimerWheel } from '../../domain/scheduling/timer-wheel';
import { ChangeCursor } from '../../domain/scheduling/change-cursor';
import type { CheckRequest } from '../../domain/checks/check-request';
import { checkResult, down, NO_TIMINGS, type CheckResult } from '../../domain/checks/check-result';
import type { Clock } from '../shared/clock';
import type { CheckOutcome, CheckPlanner, CheckSchedule, ClaimedCheck, OutcomeRecorder, PlannedCheck } from './ports';

/** Most outcomes recorded in one transaction. */
export const RECORD_CHUNK = 500;
/** Granularity of the timer wheel: a check starts at most this much (plus the host's start tick) after its slot. */
const TICK_MS = 50;
/** How long a logged change may take to commit after it is numbered: changes are read again for that long. */
const CHANGES_SETTLE_MS = 10_000;
/** Most changes read per round trip. */
const CHANGES_PAGE = 5_000;
/** How long changes are kept, and how often old ones are pruned. */
const KEEP_CHANGES_MS = 600_000;
const PRUNE_EVERY_MS = 60_000;
/** How often a worker compares what it holds with its share of each location's rows. */
const REBALANCE_EVERY_MS = 10_000;
/** A worker holds up to this much over its share (new monitors are taken at once; no churn over a few rows). */
const SHARE_SLACK = 1.05;
/** A round renews the worker once this share of its lease has passed since the last renewal (recordings renew too). */
const RENEW_AFTER_SHARE_OF_LEASE = 0.2;

export interface DispatcherOptions {
  /** Names this process's worker; each registration appends a generation (a fenced worker returns as another). */
  readonly workerId: string;
  /** Locations this process checks from (CHECK_LOCATIONS). */
  readonly locations: readonly string[];
  /** Most rows claimed per round trip. */
  readonly batchSize: number;
  /** Most checks running at once in this process. */
  readonly maxInFlight: number;
  /**
   * How long the worker stays alive without renewing (it renews with every recording, and in a
   * claim round once a fifth of this has passed, whatever its checks are doing): after that,
   * another worker may fence it and take its rows over. Longer than any pause of the process worth
   * surviving; also how long a crashed worker's rows wait.
   */
  readonly leaseMs: number;
}

export interface DispatcherStats {
  started: number;
  recorded: number;
  dropped: number;
  /** Rows this worker holds. */
  readonly held: number;
  /** Start lateness of every started check (cumulative buckets: compare snapshots). */
  readonly lateness: LatenessHistogram;
}

/** One held row: a monitor's checks from one location, with what they run (null: nothing to run now). */
interface Held {
  readonly monitorId: number;
  readonly location: string;
  intervalMs: number;
  phaseMs: number;
  slotMs: number;
  plan: Omit<PlannedCheck, 'check'> | null;
  running: boolean;
  /** Its last outcome waits to be recorded (the row is not handed back before). */
  unrecorded: boolean;
  /**
   * Still held by this worker: false once dropped, replaced or forgotten, so a queued start or a
   * finished outcome of a row no longer held is recognised without looking the row up.
   */
  current: boolean;
}

interface Finished {
  readonly held: Held;
  readonly outcome: CheckOutcome;
}

const keyOf = (monitorId: number, location: string) => `${monitorId}:${location}`;
const claimedOf = (h: Held): ClaimedCheck => ({
  monitorId: h.monitorId, location: h.location, slot: new Date(h.slotMs), intervalMs: h.intervalMs, phaseMs: h.phaseMs,
});

/**
 * The check engine's loop body. The worker claims schedule rows once and then holds them in
 * memory, on a timer wheel: running a check reads and writes nothing but its result. `pump`
 * renews the worker (when no recording did lately), claims rows no live worker holds (up to its
 * share of each location: workers of a location split its rows evenly, handing back any excess)
 * and applies monitor changes (and trigger-check) logged since the last round; `startDue` starts
 * what is due, up to capacity; `flush` records finished checks in batches, each in one
 * transaction with the worker's renewal. A worker found fenced (it missed its renewals and another
 * took its rows) forgets everything it held, drops what it had not recorded, and registers again
 * under a new generation.
 */
export class CheckDispatcher {
  private inFlight = 0;
  private readonly held = new Map<string, Held>();
  private readonly wheel: TimerWheel<Held>;
  /** Due rows waiting for capacity, in slot order, from `readyHead` on. */
  private ready: Held[] = [];
  private readyHead = 0;
  private finished: Finished[] = [];
  private generation = 0;
  private registered = false;
  /** When the worker last renewed (registering and recording renew too). */
  private renewedAt = 0;
  /** Where this worker stands in the change log. */
  private readonly changes = new ChangeCursor(CHANGES_SETTLE_MS);
  private lastPrune = 0;
  private lastRebalance = 0;
  /** Per location, the most rows this worker holds: its share (rows over live workers) and the slack. */
  private readonly most = new Map<string, number>();
  /** Per location, the rows held. */
  private readonly heldIn = new Map<string, number>();
  readonly stats: DispatcherStats;

  constructor(
    private readonly schedule: CheckSchedule,
    private readonly planner: CheckPlanner,
    private readonly run: (request: CheckRequest) => Promise<CheckResult>,
    private readonly recorder: OutcomeRecorder,
    private readonly clock: Clock,
    private readonly options: DispatcherOptions,
  ) {
    this.wheel = new TimerWheel(TICK_MS, clock.now().getTime());
    const held = this.held;
    this.stats = {
      started: 0, recorded: 0, dropped: 0, lateness: new LatenessHistogram(),
      get held() { return held.size; },
    };
  }

  /** The worker's current name in the schedule. */
  get workerId(): string {
    return `${this.options.workerId}:${this.generation}`;
  }

  get running(): number {
    return this.inFlight;
  }

  /** How many finished checks wait to be recorded. */
  get unrecorded(): number {
    return this.finished.length;
  }

  /**
   * Renews the worker (registers it first), claims rows no live worker holds, applies logged
   * changes to the rows it holds, and starts what is due. Answers how many rows were claimed.
   */
  async pump(): Promise<number> {
    const now = this.clock.now();
    const aliveUntil = new Date(now.getTime() + this.options.leaseMs);
    if (!this.registered) {
      this.changes.reset(await this.schedule.register(this.workerId, this.options.locations, aliveUntil, CHANGES_SETTLE_MS));
      this.registered = true;
      this.renewedAt = now.getTime();
    } else if (now.getTime() - this.renewedAt >= this.options.leaseMs * RENEW_AFTER_SHARE_OF_LEASE) {
      if (!(await this.schedule.renew(this.workerId, now, aliveUntil))) {
        this.forget();
        return 0;
      }
      this.renewedAt = now.getTime();
    }
    // Recording runs on a loop of its own: should it find the worker fenced meanwhile, this round stops.
    const generation = this.generation;
    if (now.getTime() - this.lastRebalance >= REBALANCE_EVERY_MS) {
      this.lastRebalance = now.getTime();
      await this.rebalance();
    }
    let taken = 0;
    for (;;) {
      // One statement for every location with room (one may overshoot: the next rebalance evens it out).
      const room = this.options.locations.map((l) => (this.most.get(l) ?? Infinity) - (this.heldIn.get(l) ?? 0));
      const locations = this.options.locations.filter((_, i) => room[i]! > 0);
      const limit = Math.min(this.options.batchSize, room.reduce((sum, r) => sum + Math.max(0, r), 0));
      if (locations.length === 0 || limit <= 0 || generation !== this.generation) break;
      const claimed = await this.schedule.claim({ workerId: this.workerId, locations, now, limit });
      const plans = await this.plansOf(claimed);
      if (generation !== this.generation) break;
      this.hold(claimed, plans, now.getTime());
      taken += claimed.length;
      if (claimed.length < limit) break;
    }
    if (generation === this.generation) await this.applyChanges(now.getTime());
    if (now.getTime() - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now.getTime();
      await this.schedule.prune(KEEP_CHANGES_MS);
    }
    this.startDue();
    return taken;
  }

  /**
   * Starts every held row whose slot has come, up to capacity (the rest start as checks finish,
   * at the next call). The host calls it on a short timer: checks of one tick start together,
   * which costs far fewer event-loop wake-ups than a timer each. Answers how many started.
   */
  startDue(): number {
    const now = this.clock.now().getTime();
    for (const h of this.wheel.advance(now)) this.ready.push(h);
    return this.startReady(now);
  }

  /** Starts ready rows while there is room, oldest first (also as running checks end, at capacity). */
  private startReady(now: number): number {
    let started = 0;
    while (this.readyHead < this.ready.length && this.inFlight < this.options.maxInFlight) {
      const h = this.ready[this.readyHead++]!;
      if (!h.current || h.running || !h.plan || h.slotMs > now) continue;
      this.start(h, now);
      started++;
    }
    if (this.readyHead === this.ready.length) {
      this.ready = [];
      this.readyHead = 0;
    } else if (this.readyHead > 1024 && this.readyHead * 2 > this.ready.length) {
      this.ready = this.ready.slice(this.readyHead);
      this.readyHead = 0;
    }
    return started;
  }

  /**
   * Records everything finished so far, in transactions of at most RECORD_CHUNK outcomes (short
   * locks, steady progress). Outcomes of rows no longer held (the monitor was paused, deleted or
   * moved) are dropped. Answers how many outcomes were handed over.
   */
  async flush(): Promise<number> {
    let handed = 0;
    while (this.finished.length > 0) {
      const chunk = this.finished.splice(0, RECORD_CHUNK);
      for (const f of chunk) f.held.unrecorded = false;
      const current = chunk.filter((f) => f.held.current);
      this.stats.dropped += chunk.length - current.length;
      if (current.length === 0) continue;
      const now = this.clock.now();
      const { recorded, dropped, fenced } = await this.recorder.record(
        this.workerId, current.map((f) => f.outcome), now, new Date(now.getTime() + this.options.leaseMs),
      );
      this.stats.recorded += recorded;
      this.stats.dropped += dropped;
      if (!fenced) this.renewedAt = now.getTime();
      handed += current.length;
      if (fenced) {
        this.stats.dropped += this.finished.length;
        this.forget();
        break;
      }
    }
    return handed;
  }

  /** A graceful stop: waits for running checks, records them, and hands every held row back at its next slot. */
  async drain(pollMs = 50): Promise<void> {
    while (this.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, pollMs));
    await this.flush();
    if (!this.registered) return;
    await this.schedule.resign(this.workerId, [...this.held.values()].map((h) => claimedOf(h)));
    this.forget();
  }

  /**
   * Works out this worker's share of each location's rows and hands back what it holds beyond it
   * (rows neither running nor waiting to be recorded, each at its next slot), so a worker joining
   * later gets rows to run. Shares are per location: a worker serving a location alone holds all of
   * it, whoever else shares its other locations (every worker serves `heartbeat`).
   */
  private async rebalance(): Promise<void> {
    const handed: Held[] = [];
    const excess = new Map<string, number>();
    for (const { location, rows, workers } of await this.schedule.load(this.options.locations, this.clock.now())) {
      const most = Math.ceil(Math.ceil(rows / Math.max(1, workers)) * SHARE_SLACK);
      this.most.set(location, most);
      const over = (this.heldIn.get(location) ?? 0) - most;
      if (over > 0) excess.set(location, over);
    }
    // Usually nothing is over its share: then the held rows are not walked at all.
    if (excess.size === 0) return;
    for (const h of this.held.values()) {
      const over = excess.get(h.location) ?? 0;
      if (over === 0 || h.running || h.unrecorded) continue;
      handed.push(h);
      excess.set(h.location, over - 1);
    }
    if (handed.length === 0) return;
    await this.schedule.release(this.workerId, handed.map((h) => claimedOf(h)));
    for (const h of handed) this.drop(keyOf(h.monitorId, h.location));
  }

  /** Holds a row (replacing any held under its key). */
  private keep(h: Held): void {
    const key = keyOf(h.monitorId, h.location);
    const previous = this.held.get(key);
    if (previous) previous.current = false;
    else this.heldIn.set(h.location, (this.heldIn.get(h.location) ?? 0) + 1);
    this.held.set(key, h);
  }

  private drop(key: string): void {
    const h = this.held.get(key);
    if (!h) return;
    h.current = false;
    this.held.delete(key);
    this.wheel.cancel(h);
    this.heldIn.set(h.location, (this.heldIn.get(h.location) ?? 1) - 1);
  }

  /** Adds claimed rows: planned now, due at their slot (at once when it has passed). */
  private hold(claimed: readonly ClaimedCheck[], plans: Map<string, Omit<PlannedCheck, 'check'>>, now: number): void {
    for (const check of claimed) {
      const h: Held = {
        monitorId: check.monitorId, location: check.location, intervalMs: check.intervalMs, phaseMs: check.phaseMs,
        slotMs: check.slot.getTime(), plan: plans.get(keyOf(check.monitorId, check.location)) ?? null,
        running: false, unrecorded: false, current: true,
      };
      this.keep(h);
      this.enqueue(h, now);
    }
  }

  private async plansOf(checks: readonly ClaimedCheck[]): Promise<Map<string, Omit<PlannedCheck, 'check'>>> {
    if (checks.length === 0) return new Map();
    const { planned } = await this.planner.plan(checks);
    return new Map(planned.map(({ check, request, organizationId, customerId }) =>
      [keyOf(check.monitorId, check.location), { request, organizationId, customerId }]));
  }

  /**
   * Reads the changes logged since the last round and re-reads the held rows of the monitors they
   * name: rows gone (paused, deleted, location dropped) are forgotten, a new interval moves the row
   * onto its new grid, a trigger makes it due now, and the plan is refreshed (config, heartbeats).
   */
  private async applyChanges(now: number): Promise<void> {
    const generation = this.generation;
    /** Monitor id -> when it was first triggered (null: not triggered), and whether it changed otherwise. */
    const touched = new Map<number, { triggeredAt: number | null; changed: boolean }>();
    let after = this.changes.from;
    for (;;) {
      const changes = await this.schedule.changesAfter(after, CHANGES_PAGE);
      if (generation !== this.generation) return;
      for (const change of changes) {
        after = change.seq;
        const holds = this.options.locations.some((l) => this.held.has(keyOf(change.monitorId, l)));
        if (!holds || !this.changes.take(change.seq)) continue;
        const t = touched.get(change.monitorId) ?? { triggeredAt: null, changed: false };
        if (change.triggered) t.triggeredAt = Math.min(t.triggeredAt ?? Infinity, change.at.getTime());
        else t.changed = true;
        touched.set(change.monitorId, t);
      }
      if (changes.length < CHANGES_PAGE) break;
    }
    this.changes.settle(now, after);
    // A trigger alone changes nothing but the slot: only monitors that changed are read again.
    const changed = [...touched].filter(([, t]) => t.changed).map(([monitorId]) => monitorId);
    const rows = await this.schedule.held(this.workerId, changed);
    const plans = await this.plansOf(rows);
    if (generation !== this.generation) return;
    const current = new Map(rows.map((row) => [keyOf(row.monitorId, row.location), row]));
    for (const [monitorId, { triggeredAt, changed: reread }] of touched) {
      for (const location of this.options.locations) {
        const key = keyOf(monitorId, location);
        const h = this.held.get(key);
        if (!h) continue;
        if (reread) {
          const row = current.get(key);
          if (!row) {
            this.drop(key);
            continue;
          }
          h.plan = plans.get(key) ?? null;
          if (row.intervalMs !== h.intervalMs || row.phaseMs !== h.phaseMs) {
            h.intervalMs = row.intervalMs;
            h.phaseMs = row.phaseMs;
            h.slotMs = nextSlotAfter(new Date(now), h.intervalMs, h.phaseMs).getTime();
          }
        }
        if (triggeredAt !== null && !h.running) h.slotMs = Math.min(h.slotMs, triggeredAt, now);
        this.enqueue(h, now);
      }
    }
  }

  /** Puts a row on the wheel at its slot, or among the ready ones when its slot has come. */
  private enqueue(h: Held, now: number): void {
    if (h.running || !h.plan) return;
    if (h.slotMs <= now || !this.wheel.schedule(h, h.slotMs)) {
      this.wheel.cancel(h);
      this.ready.push(h);
    }
  }

  /** Runs a held row's slot and queues its outcome; the row moves to its next slot when the check ends. */
  private start(h: Held, now: number): void {
    const plan = h.plan!;
    const planned: PlannedCheck = { ...plan, check: claimedOf(h) };
    const generation = this.generation;
    const startedAt = new Date(now);
    h.running = true;
    this.inFlight++;
    this.stats.started++;
    this.stats.lateness.record(latenessMs(planned.check.slot, startedAt));
    const finish = (result: CheckResult) => {
      h.running = false;
      this.inFlight--;
      if (generation === this.generation) {
        const completedAt = this.clock.now();
        h.unrecorded = true;
        this.finished.push({ held: h, outcome: { planned, result, startedAt } });
        h.slotMs = slotAfterCompletion(planned.check, completedAt).getTime();
        if (h.current) this.enqueue(h, completedAt.getTime());
      }
      // At capacity (a burst), the next ready check takes the room at once rather than at the next tick.
      if (this.readyHead < this.ready.length) this.startReady(this.clock.now().getTime());
    };
    this.run(planned.request).then(finish, (error: unknown) => finish(checkResult({
      kind: planned.request.kind, evidence: {}, checkedAt: startedAt, timings: NO_TIMINGS(0),
      findings: [down('protocolError', error instanceof Error ? error.message : String(error))],
    })));
  }

  /** Forgets every row and unrecorded outcome (the worker was fenced or resigned); the next pump registers anew. */
  private forget(): void {
    for (const h of this.held.values()) h.current = false;
    this.held.clear();
    this.wheel.clear();
    this.ready = [];
    this.readyHead = 0;
    this.finished = [];
    this.generation++;
    this.registered = false;
    this.lastRebalance = 0;
    this.most.clear();
    this.heldIn.clear();
  }
}
