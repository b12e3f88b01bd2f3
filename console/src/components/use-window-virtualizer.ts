import { observeWindowOffset, observeWindowRect, Virtualizer, windowScroll } from '@tanstack/virtual-core';
import { useEffect, useLayoutEffect, useReducer, useState } from 'preact/hooks';

/**
 * A list of `count` lines of `lineHeight` pixels scrolled with the page, of which only the lines in
 * view (and a few either side) are drawn: TanStack Virtual's core, bound to Preact's render cycle.
 * `offsetTop` is where the list starts in the page.
 */
export function useWindowVirtualizer(count: number, lineHeight: number, offsetTop: number): Virtualizer<Window, Element> {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const options = {
    count,
    estimateSize: () => lineHeight,
    getScrollElement: () => window,
    observeElementRect: observeWindowRect,
    observeElementOffset: observeWindowOffset,
    scrollToFn: windowScroll,
    overscan: 8,
    scrollMargin: offsetTop,
    initialOffset: () => window.scrollY,
    onChange: () => rerender(undefined),
  };
  const [virtualizer] = useState(() => new Virtualizer<Window, Element>(options));
  virtualizer.setOptions(options);
  useEffect(() => virtualizer._didMount(), [virtualizer]);
  useLayoutEffect(() => virtualizer._willUpdate());
  return virtualizer;
}
