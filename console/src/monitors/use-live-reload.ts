import { useEffect, useRef } from 'preact/hooks';
import { liveEvents, type LiveEvent } from '../api/live-events';

/**
 * Calls `reload` when the event stream tells of a change that `concerns` the screen, at most once
 * per quarter second (a storm of events is one reload), if one of them still concerns it then (an
 * act's answer may have shown the change meanwhile). The server's data stays the truth: events only
 * say when to read it again.
 */
export function useLiveReload(
  reload: () => void,
  concerns: (event: LiveEvent) => boolean = () => true,
  /** Sees each event that concerns the screen at once, before the reload (to show what it says right away). */
  onEvent: (event: LiveEvent) => void = () => {},
): void {
  const latest = useRef({ reload, concerns, onEvent });
  latest.current = { reload, concerns, onEvent };
  useEffect(() => {
    let timer: number | undefined;
    let pending: LiveEvent[] = [];
    const unsubscribe = liveEvents.subscribe((event) => {
      if (!latest.current.concerns(event)) return;
      latest.current.onEvent(event);
      pending.push(event);
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        // Asked again when the time comes: an act's own answer may have arrived after its event and shown it.
        const still = pending.some((e) => latest.current.concerns(e));
        pending = [];
        if (still) latest.current.reload();
      }, 250);
    });
    return () => {
      window.clearTimeout(timer);
      unsubscribe();
    };
  }, []);
}
