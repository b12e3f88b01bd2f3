import type { RefObject } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { describe } from '../../api/client';
import type { LiveEvent } from '../../api/live-events';
import { ErrorText } from '../../components/field';
import { useWindowVirtualizer } from '../../components/use-window-virtualizer';
import { STATE_LABELS, STATES, loadOverview, type OverviewRow } from '../../monitors/monitor-rows';
import { NO_FILTERS, countsOf, linesOf, type Filters } from '../../monitors/overview-filters';
import { useLiveReload } from '../../monitors/use-live-reload';
import { useUptimeBars, type BarSpan, type UptimeBars } from '../../monitors/use-uptime-bars';
import { Link } from '../../components/link';
import { OverviewFilters } from './overview-filters';
import { OverviewLine, LINE_GAP, LINE_HEIGHT } from './overview-line';

/** A state event's word for the overview's state (maintenance stays maintenance; the next read says degraded). */
function patched(row: OverviewRow, event: Extract<LiveEvent, { kind: 'monitor.stateChanged' }>): OverviewRow {
  const state = event.data.state;
  if (state === 'paused') return { ...row, state: 'paused' };
  if (row.inMaintenance) return { ...row, state: 'maintenance' };
  return { ...row, state };
}

/** How many of the filters narrow the list (said on the phone's Filters button). */
const activeFilters = (filters: Filters) =>
  (Object.keys(NO_FILTERS) as Array<keyof Filters>).filter((key) => key !== 'group' && filters[key] !== NO_FILTERS[key]).length;

/*
 * The overview's effects whose inputs are not the monitor list are hooks of their own, below: a
 * closure written in the overview's body keeps that render's whole scope alive, the list it read
 * included, until the effect runs again. The list's position, measured from the render where the
 * list first arrived, kept that first list (4.5 MB at 10,000 monitors) for as long as the page was open.
 */

/** Where the list starts on the page, measured again when `inputs` change (what moves it). */
function useOffsetTop(list: RefObject<HTMLElement | null>, inputs: unknown[]): number {
  const [offsetTop, setOffsetTop] = useState(0);
  useEffect(() => setOffsetTop(list.current?.offsetTop ?? 0), inputs);
  return offsetTop;
}

/** Asks for the uptime bars of the monitors in view. */
function useBarsWanted(bars: UptimeBars, publicIds: string[], span: BarSpan): void {
  useEffect(() => bars.want(publicIds), [publicIds.join(','), span, bars.generation]);
}

/**
 * Every monitor of the caller's scope, down first, with counts per state, search, filters and
 * grouping; a virtualised list (only the lines in view are drawn), uptime bars asked for as lines
 * come into view. Live: a state change is shown from its event at once, and the list is read again
 * shortly after to settle what an event does not say.
 */
export function Overview() {
  const [rows, setRows] = useState<OverviewRow[] | null>(null);
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [span, setSpan] = useState<BarSpan>('24h');
  // On a phone the search and filters fold behind one button (always shown on a wider screen).
  const [filtersOpen, setFiltersOpen] = useState(false);
  const bars = useUptimeBars(span);
  const listRef = useRef<HTMLDivElement>(null);

  const load = useCallback(async () => {
    try {
      setRows(await loadOverview((loaded, total) => setProgress({ loaded, total })));
      setError(null);
    } catch (failure) {
      setError(describe(failure));
    }
  }, []);
  useEffect(() => void load(), [load]);

  const settle = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(settle.current), []);
  useLiveReload(
    () => {
      window.clearTimeout(settle.current);
      settle.current = window.setTimeout(() => void load(), 5_000);
    },
    (event) => event.kind !== 'notification.deliveryAttempted',
    (event) => {
      if (event.kind !== 'monitor.stateChanged') return;
      const id = event.data.monitorId;
      setRows((current) => current && current.map((row) => (row.publicId === id ? patched(row, event) : row)));
      bars.forget([id]);
    },
  );

  const counts = useMemo(() => countsOf(rows ?? []), [rows]);
  const lines = useMemo(() => linesOf(rows ?? [], filters), [rows, filters]);
  const offsetTop = useOffsetTop(listRef, [rows !== null, filtersOpen, error]);
  const virtualizer = useWindowVirtualizer(lines.length, LINE_HEIGHT, offsetTop, LINE_GAP, (index) => lines[index]?.key ?? index);
  const inView = virtualizer.getVirtualItems();
  const visibleIds = inView.flatMap((item) => {
    const line = lines[item.index];
    return line?.type === 'monitor' ? [line.row.publicId] : [];
  });
  useBarsWanted(bars, visibleIds, span);

  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      <ErrorText message={error} />
      <ul class="counts" aria-label="Monitors per state">
        {STATES.map((s) => (
          <li key={s} class={`count count-${s}`}>
            <button
              type="button"
              class="count-button"
              aria-pressed={filters.state === s}
              onClick={() => setFilters({ ...filters, state: filters.state === s ? '' : s })}
            >
              <span class="count-number">{counts[s]}</span> {STATE_LABELS[s]}
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        class="secondary filters-toggle"
        aria-expanded={filtersOpen}
        aria-controls="overview-filters"
        onClick={() => setFiltersOpen(!filtersOpen)}
      >
        Filters{activeFilters(filters) > 0 ? ` (${activeFilters(filters)})` : ''}
      </button>
      <OverviewFilters rows={rows ?? []} filters={filters} onChange={setFilters} span={span} onSpan={setSpan} open={filtersOpen} />
      {rows === null && !error ? (
        <p role="status">{progress ? `Loading monitors… ${progress.loaded} of ${progress.total}` : 'Loading monitors…'}</p>
      ) : null}
      {rows !== null && rows.length === 0 ? (
        <p>
          No monitors yet. <Link to="/monitors/new">Add a monitor</Link>
        </p>
      ) : null}
      {rows !== null && rows.length > 0 && lines.length === 0 ? <p>No monitor matches these filters.</p> : null}
      {rows !== null && lines.length > 0 ? (
        <p class="list-summary" role="status">
          {lines.filter((l) => l.type === 'monitor').length} of {rows.length} monitors shown
        </p>
      ) : null}
      <div ref={listRef} class="monitor-list" role="list" aria-label="Monitors" style={{ height: `${virtualizer.getTotalSize()}px` }}>
        {inView.map((item) => {
          const line = lines[item.index]!;
          return (
            <OverviewLine
              key={line.key}
              line={line}
              index={item.index}
              measure={virtualizer.measureElement}
              top={item.start - virtualizer.options.scrollMargin}
              bar={line.type === 'monitor' ? bars.bar(line.row.publicId) : undefined}
              span={span}
            />
          );
        })}
      </div>
    </section>
  );
}
