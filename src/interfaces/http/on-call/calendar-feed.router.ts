import type { Request } from 'express';
import type { ZodOpenApiOperationObject } from 'zod-openapi';
import { ReadCalendarFeed } from '../../../application/on-call/read-calendar-feed';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { TokenParams } from './schemas';
import { renderCalendar } from './icalendar';

export const CALENDAR_PATH = '/api/im/calendar/{token}';

const CALENDAR_TOKEN = /^(\/api\/im\/calendar\/)[^/?#]+/;

/** Request logs never carry a feed token: it is the feed's only credential. */
export const withoutCalendarToken = (url: string): string => url.replace(CALENDAR_TOKEN, '$1[redacted]');

/** The answer to a feed request: the token once, and the URL a calendar app subscribes to. */
export const feedAnswer = (req: Request, { token }: { token: string }) => ({
  token,
  url: `${req.protocol}://${req.get('host')}${CALENDAR_PATH.replace('{token}', token)}`,
});

/** GET /api/im/calendar/{token}: the iCalendar feed itself; the token is the credential, as calendar apps send no other. */
export const imCalendarFeedRouter = defineRouter({ readCalendarFeed: ReadCalendarFeed }, (deps, use) => {
  const router = new ApiRouter(deps).public({
    operationId: 'getImCalendarFeed',
    method: 'get',
    path: CALENDAR_PATH,
    tags: ['On-call'],
    status: 200,
    summary: 'An on-call calendar feed (iCalendar)',
    description:
      'text/calendar (RFC 5545): one event per shift, 14 days back and 90 days ahead, in UTC. No session: the token ' +
      'in the URL is the secret (POST /api/im/schedules/{id}/calendar-feed or /api/im/on-call/calendar-feed). A retired ' +
      'token, or an organization whose incident management is off, answers calendarFeedNotFound.',
    params: TokenParams,
    errors: ['calendarFeedNotFound'],
    handler: async ({ params, res }) => {
      const view = await use.readCalendarFeed.execute(params);
      res
        .status(200)
        .set({
          'Content-Type': 'text/calendar; charset=utf-8',
          'Cache-Control': 'private, max-age=300',
          'Content-Disposition': 'inline; filename="on-call.ics"',
          'X-Content-Type-Options': 'nosniff',
        })
        .end(renderCalendar(view));
    },
  });
  const operation = (deps.paths[CALENDAR_PATH] as Record<string, ZodOpenApiOperationObject>).get!;
  operation.responses = {
    ...operation.responses,
    200: { description: 'The iCalendar object', content: { 'text/calendar': { schema: { type: 'string' } } } },
  };
  return router.router;
});
