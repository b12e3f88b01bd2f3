import type { Container } from 'inversify';
import type { Needs } from '../application/shared/token';
import { CONTEXTS } from './contexts';
import { hostParts } from './host-parts';
import type { ContextModule } from './modules/context-module';

/** Everything the host's routers, intakes, front handlers, admission and jobs declared they need, with who needs it. */
export function declaredNeeds(contexts: readonly ContextModule[] = CONTEXTS): Array<{ owner: string; needs: Needs }> {
  const parts = hostParts(contexts);
  return [
    ...parts.routers.map((router, i) => ({ owner: `router ${i + 1}`, needs: router.needs })),
    ...parts.intakes.map((intake) => ({ owner: `intake ${intake.path}`, needs: intake.needs })),
    ...parts.streamedIntakes.map((intake, i) => ({ owner: `streamed intake ${i + 1}`, needs: intake.needs })),
    ...parts.jobs.map((job, i) => ({ owner: `job ${i + 1}`, needs: job.needs })),
    ...parts.fronts.map((front, i) => ({ owner: `front ${i + 1}`, needs: front.needs })),
    { owner: 'admission', needs: parts.admission.needs },
  ];
}

/**
 * Resolves every declared need (and, through them, everything they depend on) once, so a missing or
 * broken binding stops the start with its name instead of failing the first request that meets it.
 * Returns how many needs were resolved.
 */
export function checkContainer(container: Container, contexts: readonly ContextModule[] = CONTEXTS): number {
  const failures: string[] = [];
  let resolved = 0;
  for (const { owner, needs } of declaredNeeds(contexts)) {
    for (const [name, id] of Object.entries(needs)) {
      try {
        container.get(id);
        resolved++;
      } catch (error) {
        failures.push(`${owner} needs ${name}: ${(error as Error).message.split('\n')[0]}`);
      }
    }
  }
  if (failures.length > 0) throw new Error(`The container cannot provide what the host needs:\n${failures.join('\n')}`);
  return resolved;
}
