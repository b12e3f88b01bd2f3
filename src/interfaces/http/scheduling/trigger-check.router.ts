import { z } from 'zod';
import { TriggerCheck } from '../../../application/scheduling/trigger-check';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';

export const triggerCheckRouter = defineRouter({ triggerCheck: TriggerCheck }, (deps, use) => {
  return new ApiRouter(deps).route({
    operationId: 'triggerWebsiteCheck',
    method: 'post',
    path: '/api/websites/{id}/trigger-check',
    tags: ['Websites'],
    status: 202,
    summary: 'Check a website now from every one of its locations',
    description:
      'Queues an immediate check from each location (publicId or legacy integer id): the worker holding ' +
      'the location starts it within about half a second. Results arrive in check-history as the checks finish. ' +
      'A location whose check is already running is not run twice (the running check answers the trigger); a ' +
      'paused monitor has nothing to queue (`triggered` counts the locations queued). A monitor without locations ' +
      'answers noLocationsConfigured.',
    params: z.object({ id: z.string().min(1).max(64) }),
    response: z.object({ websiteId: z.uuid(), locations: z.array(z.string()), triggered: z.number().int() }),
    errors: ['websiteNotFound', 'noLocationsConfigured'],
    handler: ({ actor, params }) => use.triggerCheck.execute(actor, params.id),
  }).router;
});
