import type { OwnWorkerLiveness, SilenceDeadlines } from './ports';

type Liveness = Awaited<ReturnType<SilenceDeadlines['liveness']>>;

/**
 * The silence deadlines, read only when what the process knows cannot answer. While every location
 * live at the last reading is one this process's own check worker serves, none of them falls silent
 * before that worker's lease ends, which the process renews itself: the answer is then that end,
 * with no statement. The location-silence job asks each time a deadline comes, every few seconds
 * since leases are renewed every few, so a single-process deployment stops reading for it. A reading
 * is taken when the worker's lease has ended in memory (it stopped renewing, or was fenced and not
 * registered again), when a location live at the last reading is not its own, and when asked `fresh`
 * (a run of the job: a location may have come back in another process).
 */
export class KnownSilenceDeadlines implements SilenceDeadlines {
  private lastLive: readonly string[] | null = null;

  constructor(
    private readonly read: SilenceDeadlines,
    private readonly own: OwnWorkerLiveness,
  ) {}

  async liveness(now: Date, options: { readonly fresh?: boolean } = {}): Promise<Liveness> {
    const mine = this.own.current();
    const known = this.lastLive;
    if (options.fresh !== true && known !== null && mine !== null && mine.aliveUntil.getTime() > now.getTime()) {
      if (known.every((location) => mine.locations.includes(location))) return { live: known, nextSilenceAt: mine.aliveUntil };
    }
    const reading = await this.read.liveness(now);
    this.lastLive = reading.live;
    return reading;
  }
}
