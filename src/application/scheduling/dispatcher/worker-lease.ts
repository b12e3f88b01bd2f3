import type { CheckSchedule } from '../ports';

/** A round renews the worker once this share of its lease has passed since the last renewal (recordings renew too). */
const RENEW_AFTER_SHARE_OF_LEASE = 0.2;

/** What keeping the worker alive found: it registered anew (read changes after `changesFrom`), is alive, or was fenced. */
export type LeaseState =
  { readonly kind: 'registered'; readonly changesFrom: number } | { readonly kind: 'alive' } | { readonly kind: 'fenced' };

/**
 * The worker's life in the schedule: its name (a generation per registration, since a fenced
 * worker returns as another), its lease, renewed in claim rounds once a fifth of it has passed
 * (recordings renew it too, in their transaction), and its fence: once fenced, the generation
 * moves on, and work begun under the old one is recognised by `isCurrent` and thrown away.
 */
export class WorkerLease {
  private generationNo = 0;
  private registered = false;
  /** When the worker last renewed (registering and recording renew too). */
  private renewedAt = 0;

  constructor(
    private readonly schedule: CheckSchedule,
    private readonly name: string,
    private readonly locations: readonly string[],
    private readonly leaseMs: number,
    /** How far back a new worker starts reading the change log. */
    private readonly changesSettleMs: number,
  ) {}

  /** The worker's current name in the schedule. */
  get workerId(): string {
    return `${this.name}:${this.generationNo}`;
  }

  get generation(): number {
    return this.generationNo;
  }

  get isRegistered(): boolean {
    return this.registered;
  }

  isCurrent(generation: number): boolean {
    return generation === this.generationNo;
  }

  /** Until when a renewal at `now` keeps the worker alive. */
  aliveUntil(now: Date): Date {
    return new Date(now.getTime() + this.leaseMs);
  }

  /** Registers the worker, or renews it when a fifth of its lease has passed since it last renewed. */
  async keepAlive(now: Date): Promise<LeaseState> {
    if (!this.registered) {
      const changesFrom = await this.schedule.register(this.workerId, this.locations, this.aliveUntil(now), this.changesSettleMs);
      this.registered = true;
      this.renewedAt = now.getTime();
      return { kind: 'registered', changesFrom };
    }
    if (now.getTime() - this.renewedAt < this.leaseMs * RENEW_AFTER_SHARE_OF_LEASE) return { kind: 'alive' };
    // One statement, atomic on its own: no BEGIN and COMMIT around it, two round trips of a claim round's five when idle.
    if (!(await this.schedule.heartbeat(this.workerId, now, this.aliveUntil(now)))) return { kind: 'fenced' };
    this.renewedAt = now.getTime();
    return { kind: 'alive' };
  }

  /** The locations the worker serves and until when its last renewal keeps it alive (null: not registered now). */
  liveness(): { readonly locations: readonly string[]; readonly aliveUntil: Date } | null {
    return this.registered ? { locations: this.locations, aliveUntil: new Date(this.renewedAt + this.leaseMs) } : null;
  }

  /** A recording renewed the worker in its transaction. */
  renewed(at: Date): void {
    this.renewedAt = at.getTime();
  }

  /** The worker was fenced or resigned: the next round registers it again, under a new generation. */
  end(): void {
    this.generationNo++;
    this.registered = false;
  }
}
