import type { DependencyStatus } from '../../domain/incidents/dependency-hold';
import type { AlertProfile } from '../results/ports';
import type { AlertStateRepository } from './ports';

/**
 * The states of the dependencies of a judged batch's monitors that lie outside the batch, read once
 * before its transaction (one statement, none when no monitor of the batch depends on another); the
 * rules see those inside it as their locked states change (domain/incidents/batch-judgement.ts).
 */
export async function outsideDependencies(
  profiles: ReadonlyMap<number, AlertProfile>,
  states: AlertStateRepository,
): Promise<ReadonlyMap<number, DependencyStatus>> {
  const ids = new Set<number>();
  for (const profile of profiles.values()) for (const id of profile.dependsOn) if (!profiles.has(id)) ids.add(id);
  return ids.size === 0 ? new Map() : await states.peek([...ids]);
}
