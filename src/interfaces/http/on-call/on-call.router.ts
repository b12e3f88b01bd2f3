import { WhoIsOnCall } from '../../../application/on-call/who-is-on-call';
import { IssueCalendarFeed } from '../../../application/on-call/issue-calendar-feed';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { CalendarFeedSchema, OnCallQuery, OnCallSchema } from './schemas';
import { presentScheduleOnCall } from './presenters';
import { feedAnswer } from './calendar-feed.router';

const tags = ['On-call'] as const;

/** GET /api/im/on-call, and the caller's own calendar feed. */
export const imOnCallRouter = defineRouter({ whoIsOnCall: WhoIsOnCall, issueCalendarFeed: IssueCalendarFeed }, (deps, use) => {
  return new ApiRouter(deps)
    .route({
      operationId: 'getImOnCall',
      method: 'get',
      path: '/api/im/on-call',
      tags,
      summary: 'Who is on call',
      description:
        'For each schedule (of the organization, of teamId, or scheduleId alone): who is on call at `at` (default now), ' +
        "from which layer or override, and until when. Time zones and daylight-saving changes are applied as each schedule's " +
        'timezone says.',
      query: OnCallQuery,
      response: OnCallSchema,
      errors: ['imTeamNotFound', 'imScheduleNotFound'],
      handler: async ({ actor, query }) => {
        const { at, schedules } = await use.whoIsOnCall.execute(actor, query);
        return { at: at.toISOString(), schedules: schedules.map(presentScheduleOnCall) };
      },
    })
    .route({
      operationId: 'createImOnCallCalendarFeed',
      method: 'post',
      path: '/api/im/on-call/calendar-feed',
      tags,
      summary: 'Subscribe to my own shifts in a calendar app',
      description:
        "A secret URL serving the caller's shifts across every schedule as iCalendar (RFC 5545). Answered once, " +
        'stored as a digest; asking again retires the old URL.',
      response: CalendarFeedSchema,
      handler: async ({ actor, req }) => feedAnswer(req, await use.issueCalendarFeed.execute(actor, { forCaller: true })),
    }).router;
});
