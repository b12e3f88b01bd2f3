import type { Container } from 'inversify';
import type { Needs } from '../application/shared/token';
import { agentAccessGuardNeeds } from '../interfaces/http/agent-access/guard';
import { publicPageNeeds } from '../interfaces/http/status-pages/public-page-needs';
import { INTAKES, ROUTERS, STREAMED_INTAKES } from './http';
import { JOBS } from './jobs';

/** Everything the host's routers, intakes and jobs declared they need, with who needs it. */
export function declaredNeeds(): Array<{ owner: string; needs: Needs }> {
  return [
    ...ROUTERS.map((router, i) => ({ owner: `router ${i + 1}`, needs: router.needs })),
    ...INTAKES.map((intake) => ({ owner: `intake ${intake.path}`, needs: intake.needs })),
    ...STREAMED_INTAKES.map((intake, i) => ({ owner: `streamed intake ${i + 1}`, needs: intake.needs })),
    ...JOBS.map((job, i) => ({ owner: `job ${i + 1}`, needs: job.needs })),
    { owner: 'agent access guard', needs: agentAccessGuardNeeds },
    { owner: 'public status pages', needs: publicPageNeeds },
  ];
}

/**
 * Resolves every declared need (and, through them, everything they depend on) once, so a missing or
 * broken binding stops the start with its name instead of failing the first request that meets it.
 * Returns how many needs were resolved.
 */
export function checkContainer(container: Container): number {
  const failures: string[] = [];
  let resolved = 0;
  for (const { owner, needs } of declaredNeeds()) {
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
