import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, describe } from '../api/client';
import { STATE_LABELS, STATES, type ConsoleState } from '../monitors/monitor-rows';
import { followWallEvents } from './wall-stream';
import {
  forgetWallToken,
  keepWallToken,
  loadWallMonitors,
  patchedState,
  takeWallToken,
  wallApi,
  wallRole,
  type WallMonitor,
} from './wall-data';
import './wall.css';

/** The tiles drawn at most (the rest are counted): a team's screen shows what needs someone first. */
const MAX_TILES = 48;
/** Events are applied together at most this often (a storm of them is one redraw a second). */
const APPLY_MS = 1_000;
/** The list is read again this long after the last event (to settle what an event does not say), and at least this often. */
const SETTLE_MS = 10_000;
const REFRESH_MS = 5 * 60_000;

const URGENT: ReadonlySet<ConsoleState> = new Set(['down', 'degraded', 'unknown', 'maintenance']);

/** Asks for a read-only token when the wall has none (or its token was refused). */
function TokenForm({ problem, onToken }: { problem: string | null; onToken: (token: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <main id="main" class="wall-sign-in">
      <h1>Wall display</h1>
      <p>The wall shows every monitor of a scope, down first, live. It takes a read-only API token, kept in this tab only.</p>
      {problem ? (
        <p class="error" role="alert">
          {problem}
        </p>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (value.trim()) onToken(value.trim());
        }}
      >
        <div class="field">
          <label for="wall-token">Read-only API token</label>
          <input id="wall-token" type="password" autocomplete="off" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
        </div>
        <button type="submit">Show the wall</button>
      </form>
    </main>
  );
}

function Tile({ monitor }: { monitor: WallMonitor }) {
  return (
    <li class={`wall-tile state-${monitor.state}`}>
      <span class="wall-tile-state">{STATE_LABELS[monitor.state]}</span>
      <span class="wall-tile-name">{monitor.name}</span>
      <span class="wall-tile-meta">
        {monitor.customer} · {monitor.target}
      </span>
    </li>
  );
}

/**
 * The wall display (/app/wall): read-only and full-screen for a team's screen, large tiles of what
 * is not up (down first), counts per state, live from the event stream. Its state is bounded (the
 * list as last read, the events not yet applied by monitor, one timer of each kind), so it runs for days.
 */
export function Wall() {
  const [token, setToken] = useState<string | null>(() => takeWallToken());
  const [problem, setProblem] = useState<string | null>(null);
  const [monitors, setMonitors] = useState<WallMonitor[] | null>(null);
  const [live, setLive] = useState(false);
  const [readAt, setReadAt] = useState<Date | null>(null);
  const pending = useRef(new Map<string, string>());

  useEffect(() => {
    if (!token) return;
    const client = wallApi(token);
    let stopped = false;
    let settle: number | undefined;
    const refuse = (message: string) => {
      forgetWallToken();
      setProblem(message);
      setMonitors(null);
      setToken(null);
    };
    const load = async () => {
      try {
        const next = await loadWallMonitors(client);
        if (stopped) return;
        pending.current.clear();
        setMonitors(next);
        setReadAt(new Date());
        setProblem(null);
      } catch (failure) {
        if (failure instanceof ApiError && failure.status === 401) refuse('The token was refused: give another one.');
        else if (!stopped) setProblem(describe(failure));
      }
    };
    const apply = window.setInterval(() => {
      if (pending.current.size === 0) return;
      const changes = pending.current;
      pending.current = new Map();
      setMonitors(
        (current) => current && current.map((m) => (changes.has(m.id) ? { ...m, state: patchedState(m, changes.get(m.id)!) } : m)),
      );
    }, APPLY_MS);
    const refresh = window.setInterval(() => void load(), REFRESH_MS);
    let stopStream = () => {};
    void (async () => {
      try {
        if ((await wallRole(client)) !== 'readonly') {
          refuse('The wall takes a read-only token only: this one can change things. Mint one as a read-only user.');
          return;
        }
      } catch (failure) {
        refuse(failure instanceof ApiError && failure.status === 401 ? 'The token was refused: give another one.' : describe(failure));
        return;
      }
      if (stopped) return;
      await load();
      if (stopped) return;
      stopStream = followWallEvents(token, {
        event: (event) => {
          if (event.kind === 'monitor.stateChanged') pending.current.set(event.data.monitorId, event.data.state);
          if (event.kind === 'notification.deliveryAttempted') return;
          window.clearTimeout(settle);
          settle = window.setTimeout(() => void load(), SETTLE_MS);
        },
        status: setLive,
        refused: () => refuse('The token was refused: give another one.'),
      });
    })();
    return () => {
      stopped = true;
      stopStream();
      window.clearInterval(apply);
      window.clearInterval(refresh);
      window.clearTimeout(settle);
    };
  }, [token]);

  if (!token) {
    return (
      <TokenForm
        problem={problem}
        onToken={(given) => {
          keepWallToken(given);
          setProblem(null);
          setToken(given);
        }}
      />
    );
  }
  const counts = Object.fromEntries(STATES.map((s) => [s, 0])) as Record<ConsoleState, number>;
  const urgent: WallMonitor[] = [];
  for (const monitor of monitors ?? []) {
    counts[monitor.state]++;
    if (URGENT.has(monitor.state)) urgent.push(monitor);
  }
  const order = (m: WallMonitor) => STATES.indexOf(m.state);
  urgent.sort((a, b) => order(a) - order(b));
  const shown = urgent.slice(0, MAX_TILES);
  return (
    <main id="main" class="wall" aria-labelledby="wall-title">
      <header class="wall-head">
        <h1 id="wall-title">Monitors</h1>
        <span class={`live ${live ? 'live-on' : 'live-off'}`} role="status">
          {live ? 'Live' : 'Connecting…'}
          {readAt ? ` · read ${readAt.toLocaleTimeString()}` : ''}
        </span>
      </header>
      {problem ? (
        <p class="error" role="alert">
          {problem}
        </p>
      ) : null}
      <ul class="wall-counts" aria-label="Monitors per state">
        {STATES.map((s) => (
          <li key={s} class={`wall-count state-${s}`}>
            <span class="wall-count-number">{counts[s]}</span> {STATE_LABELS[s]}
          </li>
        ))}
      </ul>
      {monitors === null ? <p role="status">Loading monitors…</p> : null}
      {monitors !== null && urgent.length === 0 ? <p class="wall-all-up">All {monitors.length} monitors are up or paused.</p> : null}
      <ul class="wall-tiles" aria-label="Monitors needing attention">
        {shown.map((monitor) => (
          <Tile key={monitor.id} monitor={monitor} />
        ))}
      </ul>
      {urgent.length > shown.length ? <p class="wall-more">and {urgent.length - shown.length} more not up</p> : null}
    </main>
  );
}
