import type { MaintenanceWindow } from '../../domain/maintenance/maintenance-window';
import { occurrencesBetween, type Occurrence } from '../../domain/maintenance/occurrences';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type {
  MaintenanceAnnouncements,
  MaintenanceEvents,
  MaintenanceTargets,
  MaintenanceWindowRepository,
  RecurrenceExpander,
} from './ports';
import { targetKey } from './ports';

/** How far ahead the next occurrence edge is looked for. */
const NEXT_EDGE_HORIZON_MS = 24 * 60 * 60_000;

export interface AnnounceOptions {
  /** How far back a missed transition is still announced (a worker that was down that long skips older ones). */
  lookbackMs: number;
}

/**
 * The maintenance job (at each occurrence's start and end, see nextDueAt): writes maintenance.started when an occurrence has begun and
 * maintenance.ended when it is over, each once per occurrence. The ledger row and the outbox row
 * commit together, so concurrent workers, a retried run or a restart never announce a transition
 * twice, and a crash before the commit leaves it for the next run. Occurrences that ended before
 * the window was created are history and are not announced.
 */
export class AnnounceMaintenance {
  constructor(
    private readonly windows: MaintenanceWindowRepository,
    private readonly targets: MaintenanceTargets,
    private readonly announcements: MaintenanceAnnouncements,
    private readonly events: MaintenanceEvents,
    private readonly expander: RecurrenceExpander,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
    private readonly options: AnnounceOptions,
  ) {}

  async execute(): Promise<{ started: number; ended: number }> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - this.options.lookbackMs);
    let started = 0;
    let ended = 0;
    for (const window of await this.windows.activeSince(since)) {
      for (const occurrence of occurrencesBetween(window, since, now, this.expander)) {
        if (occurrence.end.getTime() <= window.createdAt.getTime()) continue;
        if (occurrence.start.getTime() <= now.getTime()) {
          if (await this.announce(window, 'maintenance.started', occurrence, now)) started += 1;
        }
        if (occurrence.end.getTime() <= now.getTime()) {
          if (await this.announce(window, 'maintenance.ended', occurrence, now)) ended += 1;
        }
      }
    }
    return { started, ended };
  }

  /**
   * When the next occurrence of an active window begins or ends after `since` (the job's last run:
   * an edge passed since then is due at once), looking a day ahead (nothing by then: a day from
   * now, to read again), or null with no active window: the job sleeps until then.
   */
  async nextDueAt(since: Date): Promise<Date | null> {
    const now = this.clock.now();
    const horizon = new Date(now.getTime() + NEXT_EDGE_HORIZON_MS);
    const windows = await this.windows.activeSince(since);
    if (windows.length === 0) return null;
    let next = horizon.getTime();
    for (const window of windows) {
      for (const occurrence of occurrencesBetween(window, since, horizon, this.expander, 3)) {
        for (const edge of [occurrence.start.getTime(), occurrence.end.getTime()]) if (edge > since.getTime() && edge < next) next = edge;
      }
    }
    return new Date(next);
  }

  private announce(window: MaintenanceWindow, kind: 'maintenance.started' | 'maintenance.ended', occurrence: Occurrence, now: Date) {
    return this.tx.run(async (tx) => {
      if (!(await this.announcements.claim(window.id, kind, occurrence.start, tx))) return false;
      const existing = await this.targets.existingIn(window.organizationId, window.targets, tx);
      await this.events.publish(
        [
          {
            kind,
            version: 1,
            organizationId: window.organizationId,
            customerId: window.customerId,
            windowId: window.publicId,
            title: window.title,
            occurrence,
            occurredAt: now,
            targets: window.targets.flatMap((t) => {
              const record = existing.get(targetKey(t));
              return record ? [{ type: t.type, id: record.publicId }] : [];
            }),
          },
        ],
        tx,
      );
      return true;
    });
  }
}
