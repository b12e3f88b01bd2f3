import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorText } from './field';

/**
 * A screen loaded as its own chunk the first time it is shown, so the first view carries only the
 * overview. The module is asked for once; later renders use it at once.
 */
export function lazy<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  return function LazyScreen(props: P) {
    const [component, setComponent] = useState<ComponentType<P> | null>(() => loaded);
    const [error, setError] = useState<string | null>(null);
    useEffect(() => {
      if (component) return;
      pending ??= load().then((c) => (loaded = c));
      pending.then(
        (c) => setComponent(() => c),
        (failure: unknown) => {
          pending = null;
          setError(`This screen could not be loaded: ${failure instanceof Error ? failure.message : String(failure)}`);
        },
      );
    }, [component]);
    if (error) return <ErrorText message={error} />;
    if (!component) return <p role="status">Loading…</p>;
    const Component = component;
    return <Component {...props} />;
  };
}
