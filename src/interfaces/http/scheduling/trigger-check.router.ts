import { z } from 'zod';
import { TriggerCheck, type TriggeredCheck } from '../../../application/scheduling/trigger-check';
import { PER_KIND_TYPES } from '../../../domain/monitoring/monitor-kind';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';

const DESCRIPTION =
  'Queues an immediate check from each location (publicId or legacy integer id): the worker holding ' +
  'the location starts it within about half a second. Results arrive in check-history as the checks finish: ' +
  "each location's answer is its first result checked at or after requestedAt. A location whose check is " +
  'already running runs once more when it ends; a ' +
  'paused monitor has nothing to queue (`triggered` counts the locations queued). A monitor without locations ' +
  'answers noLocationsConfigured.';

const Triggered = z
  .object({
    websiteId: z.uuid(),
    locations: z.array(z.string()),
    triggered: z.number().int(),
    requestedAt: z.iso.datetime().meta({
      description:
        "When the checks were asked for: each location's answer is its first result in check-history with checkedAt at or " +
        'after it. A result checked before it (a regular or confirmation check) is not the answer.',
    }),
  })
  .meta({ id: 'TriggeredCheck' });
const presented = (t: TriggeredCheck) => ({ ...t, requestedAt: t.requestedAt.toISOString() });
const Params = z.object({ id: z.string().min(1).max(64) });
const opName = (kind: string) => `${kind.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase())}Monitor`;

/** "Check now": under /api/websites/{id} (any monitor's id) and under each kind's own path (that kind only). */
export const triggerCheckRouter = defineRouter({ triggerCheck: TriggerCheck }, (deps, use) => {
  const router = new ApiRouter(deps).route({
    operationId: 'triggerWebsiteCheck',
    method: 'post',
    path: '/api/websites/{id}/trigger-check',
    tags: ['Websites'],
    status: 202,
    summary: 'Check a website now from every one of its locations',
    description: `${DESCRIPTION} The id of a monitor of any kind is taken here too.`,
    params: Params,
    response: Triggered,
    errors: ['websiteNotFound', 'noLocationsConfigured'],
    handler: async ({ actor, params }) => presented(await use.triggerCheck.execute(actor, params.id)),
  });
  for (const kind of PER_KIND_TYPES)
    router.route({
      operationId: `trigger${opName(kind)}Check`,
      method: 'post',
      path: `/api/monitors/${kind}/{id}/trigger-check`,
      tags: ['Monitors'],
      status: 202,
      summary: `Check a ${kind} monitor now from every one of its locations`,
      description: `${DESCRIPTION} Another kind's id answers monitorNotFound. websiteId in the answer is the monitor's publicId.`,
      params: Params,
      response: Triggered,
      errors: ['monitorNotFound', 'noLocationsConfigured'],
      handler: async ({ actor, params }) => presented(await use.triggerCheck.execute(actor, params.id, kind)),
    });
  return router.router;
});
