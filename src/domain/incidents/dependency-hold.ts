/** What the rules need of a dependency's alert state. */
export interface DependencyStatus {
  readonly monitorId: number;
  /** Down or being confirmed down (AlertState.isFailing). */
  readonly isFailing: boolean;
  /** The root holding the dependency itself back, when it is a dependent that failed too. */
  readonly dependencyRootId: number | null;
}

/**
 * The root cause a monitor's failure is put down to: the first of its dependencies (in the order
 * they were named) that is down or being confirmed down, or that dependency's own root when it is
 * held by one in turn; null when every dependency is up or unknown. A monitor so held opens no
 * incident of its own (ObserveContext.dependencyRoot): the root's incident lists it.
 */
export function dependencyRootOf(
  dependsOn: readonly number[],
  statusOf: (monitorId: number) => DependencyStatus | undefined,
): number | null {
  for (const id of dependsOn) {
    const status = statusOf(id);
    if (status?.isFailing) return status.dependencyRootId ?? status.monitorId;
  }
  return null;
}

/**
 * Orders a batch's monitors so that a dependency is judged before the monitors depending on it
 * (its failure in the same batch then holds them back, whichever order the results came in):
 * monitors by their depth in the batch's dependency chains, stable otherwise.
 */
export function dependenciesFirst<T>(
  items: readonly T[],
  monitorOf: (item: T) => number,
  dependsOn: (monitorId: number) => readonly number[],
): T[] {
  const depth = new Map<number, number>();
  const depthOf = (id: number, trail: ReadonlySet<number>): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    let deepest = 0;
    for (const dep of dependsOn(id)) if (!trail.has(dep)) deepest = Math.max(deepest, 1 + depthOf(dep, new Set([...trail, id])));
    depth.set(id, deepest);
    return deepest;
  };
  return items
    .map((item, index) => ({ item, index, depth: depthOf(monitorOf(item), new Set()) }))
    .sort((a, b) => a.depth - b.depth || a.index - b.index)
    .map(({ item }) => item);
}
