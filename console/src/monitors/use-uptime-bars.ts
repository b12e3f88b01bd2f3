import { useCallback, useEffect, useReducer, useRef } from 'preact/hooks';
import { api, ok, type Schemas } from '../api/client';

export type BarSpan = '24h' | '90d';
export type Bucket = Schemas['UptimeBarBucket'];

/** The API takes this many monitors per call. */
const PER_CALL = 200;

export interface UptimeBars {
  bar(publicId: string): Bucket[] | undefined;
  want(publicIds: readonly string[]): void;
  forget(publicIds: readonly string[]): void;
  readonly generation: number;
}

/**
 * Uptime bars for the rows in view, asked for in batches as they scroll into view (a tick after the
 * last request, at most 200 a call) and kept for the session of the screen; `forget` drops them so
 * they are asked for again (after live changes): `generation` moves on, and the screen asks again.
 */
export function useUptimeBars(span: BarSpan): UptimeBars {
  const cache = useRef(new Map<string, Bucket[]>());
  const wanted = useRef(new Set<string>());
  const asked = useRef(new Set<string>());
  const timer = useRef<number | undefined>(undefined);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  /** Moves on when bars are forgotten, so the screen asks again for those in view. */
  const [generation, forgotten] = useReducer((n: number) => n + 1, 0);

  useEffect(() => {
    cache.current = new Map();
    asked.current = new Set();
    rerender(undefined);
  }, [span]);

  const flush = useCallback(async () => {
    const ids = [...wanted.current].filter((id) => !asked.current.has(id));
    wanted.current.clear();
    for (const id of ids) asked.current.add(id);
    for (let i = 0; i < ids.length; i += PER_CALL) {
      const batch = ids.slice(i, i + PER_CALL);
      try {
        const { bars } = await ok(api.POST('/api/monitor-overview/uptime-bars', { body: { monitorIds: batch, span } }));
        for (const bar of bars) cache.current.set(bar.monitorId, bar.buckets);
      } catch {
        for (const id of batch) asked.current.delete(id);
      }
    }
    rerender(undefined);
  }, [span]);

  const want = useCallback(
    (ids: readonly string[]) => {
      let added = false;
      for (const id of ids) {
        if (cache.current.has(id) || asked.current.has(id)) continue;
        wanted.current.add(id);
        added = true;
      }
      if (!added) return;
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => void flush(), 50);
    },
    [flush],
  );
  const forget = useCallback((ids: readonly string[]) => {
    for (const id of ids) {
      cache.current.delete(id);
      asked.current.delete(id);
    }
    forgotten(undefined);
  }, []);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return { bar: (id: string) => cache.current.get(id), want, forget, generation };
}
