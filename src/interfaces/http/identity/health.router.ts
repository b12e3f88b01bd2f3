import { z } from 'zod';
import { CheckHealth } from '../../../application/identity/check-health';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';

export const healthRouter = defineRouter({ checkHealth: CheckHealth }, (deps, use) => {
  return new ApiRouter(deps).route({
    operationId: 'getHealth',
    method: 'get',
    path: '/api/health',
    tags: ['Health'],
    summary: 'Service and database health',
    description: 'Answers 200 with status ok when the database is reachable, 503 with status degraded otherwise.',
    response: z.object({
      status: z.enum(['ok', 'degraded']),
      database: z.object({ reachable: z.boolean(), latencyMs: z.number().nullable() }),
    }),
    handler: async ({ res }) => {
      const health = await use.checkHealth.execute();
      if (health.status === 'ok') return health;
      res.status(503).json(health);
      return undefined;
    },
  }).router;
});
