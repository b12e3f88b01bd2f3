import type { AlertState } from '../../domain/incidents/alert-state';
import { dependencyRootOf, type DependencyStatus } from '../../domain/incidents/dependency-hold';
import type { AlertProfile } from '../results/ports';
import type { AlertStateRepository } from './ports';

/**
 * What a judged batch knows of its monitors' dependencies: the states of the dependencies outside
 * the batch, read once before its transaction (one statement, none when no monitor of the batch
 * depends on another), and, for those inside it, their locked states as the rules change them.
 */
export class BatchDependencies {
  private constructor(private readonly outside: ReadonlyMap<number, DependencyStatus>) {}

  static async load(profiles: ReadonlyMap<number, AlertProfile>, states: AlertStateRepository): Promise<BatchDependencies> {
    const ids = new Set<number>();
    for (const profile of profiles.values()) for (const id of profile.dependsOn) if (!profiles.has(id)) ids.add(id);
    return new BatchDependencies(ids.size === 0 ? new Map() : await states.peek([...ids]));
  }

  /** The root cause a failure of a monitor depending on `dependsOn` is put down to now, or null. */
  rootOf(dependsOn: readonly number[], locked: ReadonlyMap<number, AlertState>): number | null {
    if (dependsOn.length === 0) return null;
    return dependencyRootOf(dependsOn, (id) => locked.get(id) ?? this.outside.get(id));
  }
}
