import { useEffect, useRef } from 'preact/hooks';
import { liveEvents, type LiveEvent } from '../api/live-events';

/**
 * Calls `reload` when the event stream tells of a change that `concerns` the screen, at most once
 * per quarter second (a storm of events is one reload). The server's data stays the truth: events
 * only say when to read it again.
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
    const unsubscribe = liveEvents.subscribe((event) => {
      if (!latest.current.concerns(event)) return;
      latest.current.onEvent(event);
      window.clearTimeout(timer);
      timer = window.setTimeout(() => latest.current.reload(), 250);
    });
    return () => {
      window.clearTimeout(timer);
      unsubscribe();
    };
  }, []);
}
