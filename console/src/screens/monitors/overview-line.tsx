import { ago, ms } from '../../components/format';
import { Link } from '../../components/link';
import { StateBadge } from '../../components/state-badge';
import { UptimeBar } from '../../components/uptime-bar';
import { unknownWhy } from '../../monitors/monitor-rows';
import type { ListLine } from '../../monitors/overview-filters';
import type { Bucket } from '../../monitors/use-uptime-bars';

/** Every line of the list has this height (pixels), so the list knows where each is without drawing it. */
export const LINE_HEIGHT = 72;
/** A monitor's box within its line: the rest is the gap to the next. */
const BOX_HEIGHT = LINE_HEIGHT - 8;

/** One line of the overview: a group's heading, or a monitor with its state, newest result and uptime bar. */
export function OverviewLine({ line, top, bar, span }: { line: ListLine; top: number; bar: Bucket[] | undefined; span: string }) {
  const position = { transform: `translateY(${top}px)`, height: `${line.type === 'group' ? LINE_HEIGHT : BOX_HEIGHT}px` };
  if (line.type === 'group') {
    return (
      <div role="listitem" class="monitor-group" style={position}>
        <h2 class="group-title">
          {line.label} <span class="group-count">({line.count})</span>
        </h2>
      </div>
    );
  }
  const { row } = line;
  const why = unknownWhy(row.currentState);
  return (
    <div role="listitem" class={`monitor-row state-${row.state}`} style={position}>
      <div class="monitor-main">
        <Link to={`/monitors/${row.kind}/${row.publicId}`} class="monitor-name">
          {row.name}
        </Link>
        <span class="monitor-target">{row.target ?? row.monitoringType}</span>
      </div>
      <StateBadge state={row.state} />
      <span class="monitor-meta">
        {row.customerName} · {row.kind}
        {row.tags.length > 0 ? ` · ${row.tags.map((t) => t.name).join(', ')}` : ''}
      </span>
      <span class="monitor-meta" title={why ?? undefined}>
        {why ?? `${ms(row.lastCheck?.responseTimeMs)} · ${ago(row.lastCheck?.checkedAt)}`}
      </span>
      <UptimeBar buckets={bar} span={span} />
    </div>
  );
}
