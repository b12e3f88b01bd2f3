import { observeWindowOffset, observeWindowRect, Virtualizer, windowScroll } from '@tanstack/virtual-core';
import { useEffect, useLayoutEffect, useReducer, useState } from 'preact/hooks';

/**
 * A list of `count` lines scrolled with the page, of which only the lines in view (and a few either
 * side) are drawn: TanStack Virtual's core, bound to Preact's render cycle. Lines are `lineHeight`
 * pixels until drawn; a line given `ref={virtualizer.measureElement}` and `data-index` is then
 * measured (a long name wraps on a phone), `gap` pixels apart. `offsetTop` is where the list starts.
 */
export function useWindowVirtualizer(
  count: number,
  lineHeight: number,
  offsetTop: number,
  gap = 0,
  keyOf: (index: number) => string | number = (index) => index,
): Virtualizer<Window, Element> {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const options = {
    count,
    estimateSize: () => lineHeight,
    getScrollElement: () => window,
    observeElementRect: observeWindowRect,
    observeElementOffset: observeWindowOffset,
    scrollToFn: windowScroll,
    overscan: 8,
    gap,
    // A measured line keeps its height by its key when the list is sorted again.
    getItemKey: keyOf,
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
