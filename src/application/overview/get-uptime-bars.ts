import { BAR_SPANS, barOf, barStart, type BarBucket, type BarSpan } from '../../domain/overview/monitor-overview';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { OverviewReader } from './ports';

/** At most this many monitors per call: an overview asks for the rows it shows. */
export const MAX_BAR_MONITORS = 200;

/**
 * POST /api/monitor-overview/uptime-bars: for each monitor asked for, its uptime bar over the last
 * 24 hours (hourly) or 90 days (daily), from the hourly rollups and, for what is not rolled up yet,
 * the raw results. Monitors the caller cannot see are listed in notFound.
 */
export class GetUptimeBars {
  constructor(
    private readonly reader: OverviewReader,
    private readonly clock: Clock,
  ) {}

  async execute(
    actor: Actor,
    { monitorIds, span }: { monitorIds: readonly string[]; span: BarSpan },
  ): Promise<{ bars: Array<{ monitorId: string; buckets: BarBucket[] }>; notFound: string[] }> {
    const refs = [...new Set(monitorIds)];
    const now = this.clock.now();
    const monitors = await this.reader.resolve(actor.scope, refs);
    const tallies = await this.reader.tallies([...monitors.values()], barStart(span, now), BAR_SPANS[span].bucketMs);
    return {
      bars: refs.flatMap((ref) => {
        const monitor = monitors.get(ref);
        return monitor ? [{ monitorId: ref, buckets: barOf(span, now, tallies.get(monitor.id) ?? []) }] : [];
      }),
      notFound: refs.filter((ref) => !monitors.has(ref)),
    };
  }
}
