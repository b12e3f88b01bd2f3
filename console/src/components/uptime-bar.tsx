import type { Bucket } from '../monitors/use-uptime-bars';

/** The bucket's colour class: down if any time was down, degraded if any was degraded, up, or nothing checked. */
const classOf = (bucket: Bucket) =>
  bucket.up === null ? 'bar-none' : (bucket.down ?? 0) > 0 ? 'bar-down' : (bucket.degraded ?? 0) > 0 ? 'bar-degraded' : 'bar-up';

const percentOf = (share: number | null) => (share === null ? 'not checked' : `${(share * 100).toFixed(2)} % up`);

/**
 * An uptime bar: one mark per bucket, oldest first, its colour the worst status seen and its height
 * the share of time up; its label says the whole span's uptime in words.
 */
export function UptimeBar({ buckets, span }: { buckets: Bucket[] | undefined; span: string }) {
  if (!buckets) return <span class="uptime-bar uptime-bar-loading" aria-hidden="true" />;
  const checked = buckets.filter((b) => b.up !== null);
  const overall = checked.length === 0 ? null : checked.reduce((sum, b) => sum + (b.up ?? 0), 0) / checked.length;
  const width = 100 / buckets.length;
  return (
    <svg class="uptime-bar" viewBox="0 0 100 20" preserveAspectRatio="none" role="img" aria-label={`Last ${span}: ${percentOf(overall)}`}>
      {buckets.map((bucket, index) => (
        <rect
          key={bucket.start}
          class={classOf(bucket)}
          x={index * width + 0.15}
          width={width - 0.3}
          y={bucket.up === null ? 14 : 20 - Math.max(4, 20 * (bucket.up + (bucket.degraded ?? 0)))}
          height={bucket.up === null ? 6 : Math.max(4, 20 * (bucket.up + (bucket.degraded ?? 0)))}
        >
          <title>{`${new Date(bucket.start).toLocaleString()}: ${percentOf(bucket.up)}`}</title>
        </rect>
      ))}
    </svg>
  );
}
