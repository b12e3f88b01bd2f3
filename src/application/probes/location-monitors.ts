import type { Clock } from '../shared/clock';
import type { ProbeAssignments, ProbeMonitor } from './ports';

/** How old a change must be to be taken as committed in its sequence's order (as a worker registering takes it). */
const SETTLED_MS = 10_000;
/** Most changes read per statement. */
const FOLLOW_PAGE = 5_000;

interface View {
  readonly monitors: Map<number, ProbeMonitor>;
  through: number;
  followedAt: number;
  following: Promise<void> | null;
}

/**
 * The monitors each location checks, kept in this process's memory and followed through the
 * schedule's change log (the log probes read their `gone` changes from): read whole once per
 * location, then every `followEveryMs` the changes after the last one read, each with the monitor
 * as the location has it now (an edit, a move, a pause or a deletion changes or drops it). A
 * monitor it does not hold (created since, or moved there by a change not read yet) is read from
 * the schedule when a result names it, and kept. What the view answers is a fast path's first
 * word, not its last: the statement that stores a probe's steady batch checks every monitor's
 * schedule row again (SteadyProbeResults), and every other batch reads the schedule as before.
 */
export class LocationMonitors {
  private readonly views = new Map<string, View>();

  constructor(
    private readonly assignments: ProbeAssignments,
    private readonly clock: Clock,
    private readonly followEveryMs = 1_000,
  ) {}

  /** Of these monitors, those scheduled at the location as far as the view knows (ids it does not hold are read first). */
  async monitorsAt(location: string, monitorIds: readonly number[]): Promise<Map<number, ProbeMonitor>> {
    const view = await this.current(location);
    const found = new Map<number, ProbeMonitor>();
    const unknown: number[] = [];
    for (const id of monitorIds) {
      const monitor = view.monitors.get(id);
      if (monitor) found.set(id, monitor);
      else unknown.push(id);
    }
    if (unknown.length > 0) {
      const read = await this.assignments.monitorsAt(location, unknown);
      for (const [id, monitor] of read) {
        found.set(id, monitor);
        view.monitors.set(id, monitor);
      }
    }
    return found;
  }

  /** What a read of the schedule found for these monitors (the long way's): kept, and those it did not find dropped. */
  learn(location: string, monitorIds: readonly number[], found: ReadonlyMap<number, ProbeMonitor>): void {
    const view = this.views.get(location);
    if (!view) return;
    for (const id of monitorIds) {
      const monitor = found.get(id);
      if (monitor) view.monitors.set(id, monitor);
      else view.monitors.delete(id);
    }
  }

  /** The location's view, loaded or followed first when it is due. */
  private async current(location: string): Promise<View> {
    let view = this.views.get(location);
    const now = this.clock.now().getTime();
    if (!view) {
      const loaded = await this.assignments.monitorsOf(location, SETTLED_MS);
      // Another batch may have loaded it meanwhile: the first one stays.
      view = this.views.get(location) ?? {
        monitors: new Map(loaded.monitors.map((m) => [m.monitorId, m])),
        through: loaded.through,
        followedAt: -Infinity,
        following: null,
      };
      this.views.set(location, view);
    }
    if (now - view.followedAt >= this.followEveryMs) {
      view.following ??= this.follow(location, view, now).finally(() => {
        view.following = null;
      });
    }
    if (view.following) await view.following;
    return view;
  }

  private async follow(location: string, view: View, now: number): Promise<void> {
    for (;;) {
      const after = view.through;
      const page = await this.assignments.followAt(location, after, FOLLOW_PAGE);
      for (const { monitorId, monitor } of page.changes) {
        if (monitor) view.monitors.set(monitorId, monitor);
        else view.monitors.delete(monitorId);
      }
      view.through = page.readThrough;
      if (page.readThrough - after < FOLLOW_PAGE) break;
    }
    view.followedAt = now;
  }
}
