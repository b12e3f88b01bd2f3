import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText } from '../../components/field';
import { ms } from '../../components/format';
import { resultsPath } from '../../monitors/monitor-api';
import type { MonitorKind } from '../../monitors/monitor-rows';

type ResponseTimes = Schemas['ResponseTimes'];
const PERIODS = { '1h': 'Hour', '24h': 'Day', '7d': 'Week', '30d': '30 days', '90d': '90 days' } as const;
type Period = keyof typeof PERIODS;

/** Line colours per location (median solid, p95 dashed), readable in both schemes. */
const PALETTE = ['#1f77b4', '#9467bd', '#17becf', '#ff7f0e', '#8c564b', '#e377c2'];

/** The chart's data: x in seconds; per location its median and p95; failures as points on top. */
function dataOf(series: ResponseTimes): { data: Array<Array<number | null>>; labels: string[] } {
  const first = series.locations[0]?.points ?? [];
  const xs = first.map((p) => Date.parse(p.start) / 1000);
  const data: Array<Array<number | null>> = [xs];
  const labels: string[] = [];
  for (const { location, points } of series.locations) {
    data.push(points.map((p) => p.median));
    data.push(points.map((p) => p.p95));
    labels.push(`${location} median`, `${location} p95`);
  }
  const failures = xs.map((_, i) => {
    const failing = series.locations.some(({ points }) => (points[i]?.down ?? 0) + (points[i]?.degraded ?? 0) > 0);
    if (!failing) return null;
    return Math.max(0, ...series.locations.map(({ points }) => points[i]?.p95 ?? 0));
  });
  data.push(failures);
  labels.push('failures');
  return { data, labels };
}

/** A summary in words for those who cannot see the chart. */
function summaryOf(series: ResponseTimes, period: Period): string {
  const parts = series.locations.map(({ location, points }) => {
    const measured = points.filter((p) => p.median !== null);
    const last = measured[measured.length - 1];
    const failed = points.reduce((sum, p) => sum + p.down + p.degraded, 0);
    return `${location}: latest median ${ms(last?.median)}, p95 ${ms(last?.p95)}, ${failed} failed checks`;
  });
  return `Response times over the last ${PERIODS[period].toLowerCase()}. ${parts.join('; ') || 'No results yet.'}`;
}

/**
 * Response times per location over a period (an hour to 90 days): median and 95th percentile per
 * bucket, buckets with failures marked. Drawn by uPlot, loaded only when a monitor's page opens.
 */
export function ResponseChart({ kind, id, refresh }: { kind: MonitorKind; id: string; refresh: number }) {
  const [period, setPeriod] = useState<Period>('24h');
  const [series, setSeries] = useState<ResponseTimes | null>(null);
  const [error, setError] = useState<string | null>(null);
  const holder = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let cancelled = false;
    ok(api.GET(resultsPath(kind, 'response-times'), { params: { path: { id }, query: { period } } }))
      .then((found) => !cancelled && (setSeries(found), setError(null)))
      .catch((failure: unknown) => !cancelled && setError(describe(failure)));
    return () => void (cancelled = true);
  }, [kind, id, period, refresh]);

  useEffect(() => {
    const element = holder.current;
    if (!series || !element || series.locations.length === 0) return;
    let plot: { destroy(): void; setSize(size: { width: number; height: number }): void } | undefined;
    let disposed = false;
    const resize = new ResizeObserver(() => plot?.setSize({ width: element.clientWidth, height: 240 }));
    void import('./draw-chart').then(({ drawChart }) => {
      if (disposed) return;
      const { data, labels } = dataOf(series);
      plot = drawChart(element, data, labels, PALETTE);
      resize.observe(element);
    });
    return () => {
      disposed = true;
      resize.disconnect();
      plot?.destroy();
    };
  }, [series]);

  return (
    <section aria-labelledby="chart-title" class="chart-section">
      <div class="chart-header">
        <h2 id="chart-title">Response times</h2>
        <div class="segmented" role="group" aria-label="Period">
          {(Object.keys(PERIODS) as Period[]).map((p) => (
            <button key={p} type="button" aria-pressed={p === period} onClick={() => setPeriod(p)}>
              {PERIODS[p]}
            </button>
          ))}
        </div>
      </div>
      <ErrorText message={error} />
      {series && series.locations.length === 0 ? <p class="muted">No results in this period.</p> : null}
      <div ref={holder} class="chart" role="img" aria-label={series ? summaryOf(series, period) : 'Loading response times'} />
    </section>
  );
}
