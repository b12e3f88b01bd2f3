/**
 * A client library loaded on the first check of its kind and kept: a service without such a monitor
 * never holds it, and later checks take it from here. An `import()` per check costs the module
 * loader's resolution every time (about 4.5 µs, a URL built and a module map consulted); this costs
 * a property read. Answers the module itself once loaded (no promise to wait for), else the load.
 */
export function lazyModule<T>(load: () => Promise<T>): () => T | Promise<T> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  return () => {
    if (loaded !== undefined) return loaded;
    loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        // A failed load (a missing optional package) is tried again on the next check.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
}
