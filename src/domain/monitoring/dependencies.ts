import { AppError } from '../shared/app-error';
import type { ManagementType } from './monitor-kind';

/** At most this many monitors a monitor may depend on. */
export const MAX_DEPENDENCIES = 20;

/** A monitor named as a dependency, as the organization's monitors know it. */
export interface DependencyTarget {
  readonly id: number;
  readonly publicId: string;
  readonly organizationId: number;
  readonly customerId: number;
  readonly managementType: ManagementType;
}

/** A monitor of the stored dependency graph. */
export interface DependencyNode {
  readonly publicId: string;
  readonly dependsOn: readonly number[];
}

/** The monitor whose dependencies are set. */
export interface DependentMonitor {
  readonly id: number;
  readonly publicId: string;
  readonly organizationId: number;
  readonly customerId: number;
  /** Its dependencies before this change (kept ones are not judged again: a link made by the organization stays). */
  readonly dependsOn: readonly number[];
}

export interface DependencyChange {
  readonly monitor: DependentMonitor;
  /** The references sent (ids or publicIds, as the caller wrote them), in order. */
  readonly refs: readonly string[];
  /** The monitors those references name in the monitor's organization (a reference naming none is missing). */
  readonly resolve: (ref: string) => DependencyTarget | undefined;
  /** The caller sees the whole organization (not bound to one customer). */
  readonly organizationWide: boolean;
  /** The organization's monitors that depend on others, as stored: id to its publicId and the ids it depends on. */
  readonly graph: ReadonlyMap<number, DependencyNode>;
}

/**
 * Decides a monitor's new dependencies: the ids to store, in the order sent, duplicates dropped.
 *
 * - A dependency is a monitor of the same organization (else dependencyNotFound, as for any monitor
 *   the caller cannot see).
 * - A customer's monitor depends on monitors of its own customer, or on ones the organization
 *   shares: monitors it manages (managementType `managed`) of another customer, linked by an
 *   organization-wide caller. A customer-bound caller sees no other customer's monitor
 *   (dependencyNotFound); another customer's self-service monitor is never shared
 *   (dependencyNotShared). A link already stored is kept as it is.
 * - No loop: a monitor cannot depend, directly or through others, on itself (dependencyCycle, with the
 *   loop's monitors in order, starting and ending with this one).
 */
export function decideDependencies(change: DependencyChange): number[] {
  const { monitor, organizationWide } = change;
  const ids: number[] = [];
  const publicIds = new Map<number, string>([[monitor.id, monitor.publicId]]);
  for (const ref of change.refs) {
    const target = change.resolve(ref);
    if (!target || target.organizationId !== monitor.organizationId)
      throw new AppError('dependencyNotFound', { field: 'dependsOn', dependency: ref });
    const kept = monitor.dependsOn.includes(target.id);
    if (!kept && target.customerId !== monitor.customerId) {
      if (!organizationWide) throw new AppError('dependencyNotFound', { field: 'dependsOn', dependency: ref });
      if (target.managementType !== 'managed')
        throw new AppError('dependencyNotShared', { field: 'dependsOn', dependency: target.publicId });
    }
    publicIds.set(target.id, target.publicId);
    if (!ids.includes(target.id)) ids.push(target.id);
  }
  if (ids.length > MAX_DEPENDENCIES) throw new AppError('tooManyDependencies', { field: 'dependsOn', max: MAX_DEPENDENCIES });
  const edges = new Map([...change.graph].map(([id, node]) => [id, node.dependsOn]));
  const loop = findLoop(monitor.id, ids, edges);
  if (loop) {
    for (const [id, node] of change.graph) if (!publicIds.has(id)) publicIds.set(id, node.publicId);
    throw new AppError(
      'dependencyCycle',
      { field: 'dependsOn', cycle: loop.map((id) => publicIds.get(id) ?? String(id)), cycleIds: loop },
      'The dependencies would form a loop',
    );
  }
  return ids;
}

/**
 * The first loop through `monitorId` once it depends on `dependsOn` (the rest of the graph as
 * stored): the ids along it, starting and ending with `monitorId`; null when there is none.
 * Depth-first, each monitor visited once.
 */
export function findLoop(monitorId: number, dependsOn: readonly number[], graph: ReadonlyMap<number, readonly number[]>): number[] | null {
  const edges = (id: number) => (id === monitorId ? dependsOn : (graph.get(id) ?? []));
  const seen = new Set<number>();
  const path: number[] = [monitorId];
  const walk = (id: number): boolean => {
    for (const next of edges(id)) {
      if (next === monitorId) {
        path.push(next);
        return true;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      path.push(next);
      if (walk(next)) return true;
      path.pop();
    }
    return false;
  };
  return walk(monitorId) ? path : null;
}
