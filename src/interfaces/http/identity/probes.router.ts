import { z } from 'zod';
import { CheckReadiness } from '../../../application/identity/check-readiness';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';

/** Paths load balancers and orchestrators poll: outside /api, so no authentication and no rate limit. */
export const PROBE_PATHS = ['/livez', '/readyz'];

/** Liveness and readiness of this process, for load balancers and orchestrators. */
export const probesRouter = defineRouter({ checkReadiness: CheckReadiness }, (deps, use) => {
  return new ApiRouter(deps)
    .public({
      method: 'get',
      path: '/livez',
      operationId: 'getLiveness',
      tags: ['Health'],
      summary: 'Liveness: the process answers',
      description:
        'For orchestrators (restart when it fails): answers 200 whenever the process serves HTTP, whatever the ' +
        'database does. No authentication, no rate limit.',
      response: z.object({ status: z.literal('ok') }),
      handler: async () => ({ status: 'ok' as const }),
    })
    .public({
      method: 'get',
      path: '/readyz',
      operationId: 'getReadiness',
      tags: ['Health'],
      summary: 'Readiness: the database answers and migrations are done',
      description:
        'For load balancers (send traffic while it answers 200): 503 in the error envelope with `databaseUnavailable` ' +
        'when the database does not answer within 2 s, or `migrationsPending` (with `data.pending`) when its schema lacks ' +
        'migrations of this build. Ready again as soon as the database is, without a restart. No authentication, no rate limit.',
      response: z.object({ status: z.literal('ready') }),
      errors: ['databaseUnavailable', 'migrationsPending'],
      handler: async () => use.checkReadiness.execute(),
    }).router;
});
