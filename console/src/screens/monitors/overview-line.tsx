import { ago, ms } from '../../components/format';
import { Link } from '../../components/link';
import { StateBadge } from '../../components/state-badge';
import { UptimeBar } from '../../components/uptime-bar';
import { unknownWhy } from '../../monitors/monitor-rows';
import type { ListLine } from '../../monitors/overview-filters';
import type { Bucket } from '../../monitors/use-uptime-bars';

/**
 * A line's height (pixels) until it is drawn and measured: at least this on a desktop (the
 * stylesheet's min-height), more on a phone, where a long name or address wraps instead of being clipped.
 */
export const LINE_HEIGHT = 64;
/** The space between two lines. */
export const LINE_GAP = 8;

interface Props {
  line: ListLine;
  index: number;
  top: number;
  bar: Bucket[] | undefined;
  span: string;
  measure: (element: Element | null) => void;
}

/** One line of the overview: a group's heading, or a monitor with its state, newest result and uptime bar. */
export function OverviewLine({ line, index, top, bar, span, measure }: Props) {
  const position = { transform: `translateY(${top}px)` };
  if (line.type === 'group') {
    return (
      <div role="listitem" class="monitor-group" style={position} data-index={index} ref={measure}>
        <h2 class="group-title">
          {line.label} <span class="group-count">({line.count})</span>
        </h2>
      </div>
    );
  }
  const { row } = line;
  const why = unknownWhy(row.currentState);
  return (
    <div role="listitem" class={`monitor-row state-${row.state}`} style={position} data-index={index} ref={measure}>
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
