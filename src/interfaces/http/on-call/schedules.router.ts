import { ListSchedules } from '../../../application/on-call/list-schedules';
import { GetSchedule } from '../../../application/on-call/get-schedule';
import { CreateSchedule } from '../../../application/on-call/create-schedule';
import { UpdateSchedule } from '../../../application/on-call/update-schedule';
import { DeleteSchedule } from '../../../application/on-call/delete-schedule';
import { AddScheduleOverride } from '../../../application/on-call/add-schedule-override';
import { RemoveScheduleOverride } from '../../../application/on-call/remove-schedule-override';
import { GetScheduleTimeline } from '../../../application/on-call/get-schedule-timeline';
import { IssueCalendarFeed } from '../../../application/on-call/issue-calendar-feed';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import {
  CalendarFeedSchema,
  CreateScheduleBody,
  IdParams,
  ListSchedulesQuery,
  OverrideBody,
  OverrideCreatedSchema,
  OverrideParams,
  ScheduleSchema,
  TimelineQuery,
  TimelineSchema,
  UpdateScheduleBody,
} from './schemas';
import { presentOverride, presentSchedule, presentSegment } from './presenters';
import { feedAnswer } from './calendar-feed.router';
import { PageQuery, pageOf, pagedSchema } from '../shared/paging';

const tags = ['On-call'] as const;
const WRITE_NOTE = "Organization admins and admins of the schedule's team; anyone else answers imTeamWriteDenied.";

/** On-call schedules: rotation layers in a time zone, overrides, the resulting timeline and its calendar feed. */
export const imSchedulesRouter = defineRouter(
  {
    listSchedules: ListSchedules,
    createSchedule: CreateSchedule,
    getSchedule: GetSchedule,
    updateSchedule: UpdateSchedule,
    deleteSchedule: DeleteSchedule,
    addScheduleOverride: AddScheduleOverride,
    removeScheduleOverride: RemoveScheduleOverride,
    getScheduleTimeline: GetScheduleTimeline,
    issueCalendarFeed: IssueCalendarFeed,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'listImSchedules',
        method: 'get',
        path: '/api/im/schedules',
        tags,
        summary: 'List schedules',
        query: ListSchedulesQuery.extend(PageQuery),
        response: pagedSchema(ScheduleSchema, 'SchedulePage'),
        errors: ['imTeamNotFound'],
        handler: async ({ actor, query: { page, perPage, ...query } }) =>
          pageOf((await use.listSchedules.execute(actor, query)).map(presentSchedule), { page, perPage }),
      })
      .route({
        operationId: 'createImSchedule',
        method: 'post',
        path: '/api/im/schedules',
        tags,
        status: 201,
        summary: 'Create a schedule',
        description:
          'A schedule of a team: rotation layers read in timezone. Each layer rotates its users daily, weekly or by a ' +
          'custom shift length from startsAt, whose local time is the hand-off time (a 09:00 hand-off stays 09:00 across ' +
          'daylight-saving changes; a time the change skips moves forward by the gap), optionally restricted to hours of the day ' +
          'and days of the week. Later layers cover earlier ones; overrides cover every layer. imTeamNotFound for a team that is ' +
          `not the organization's, userNotFound for a layer user outside it. ${WRITE_NOTE}`,
        body: CreateScheduleBody,
        response: ScheduleSchema,
        errors: ['imTeamNotFound', 'imTeamWriteDenied', 'userNotFound'],
        handler: async ({ actor, body }) => presentSchedule(await use.createSchedule.execute(actor, body)),
      })
      .route({
        operationId: 'getImSchedule',
        method: 'get',
        path: '/api/im/schedules/{id}',
        tags,
        summary: 'Get a schedule',
        params: IdParams,
        response: ScheduleSchema,
        errors: ['imScheduleNotFound'],
        handler: async ({ actor, params }) => presentSchedule(await use.getSchedule.execute(actor, params)),
      })
      .route({
        operationId: 'updateImSchedule',
        method: 'patch',
        path: '/api/im/schedules/{id}',
        tags,
        summary: 'Change a schedule',
        description: `layers, when sent, replace every layer; moving the schedule to another team needs the right to write both. ${WRITE_NOTE}`,
        params: IdParams,
        body: UpdateScheduleBody,
        response: ScheduleSchema,
        errors: ['imScheduleNotFound', 'imTeamNotFound', 'imTeamWriteDenied', 'userNotFound', 'conflict'],
        handler: async ({ actor, params, body }) =>
          presentSchedule(await use.updateSchedule.execute(actor, { id: params.id, change: body })),
      })
      .route({
        operationId: 'deleteImSchedule',
        method: 'delete',
        path: '/api/im/schedules/{id}',
        tags,
        summary: 'Delete a schedule',
        description: WRITE_NOTE,
        params: IdParams,
        errors: ['imScheduleNotFound', 'imTeamWriteDenied'],
        handler: async ({ actor, params }) => {
          await use.deleteSchedule.execute(actor, params);
        },
      })
      .route({
        operationId: 'createImScheduleOverride',
        method: 'post',
        path: '/api/im/schedules/{id}/overrides',
        tags,
        summary: 'Put someone on call for a span',
        description:
          'From start to end the user is on call instead of whoever the layers name; where overrides overlap the one ' +
          `created last wins. imScheduleNotFound for a schedule outside the organization, userNotFound for a user outside it. ${WRITE_NOTE}`,
        params: IdParams,
        body: OverrideBody,
        response: OverrideCreatedSchema,
        errors: ['imScheduleNotFound', 'imTeamWriteDenied', 'userNotFound', 'conflict'],
        handler: async ({ actor, params, body }) => {
          const { schedule, override } = await use.addScheduleOverride.execute(actor, { scheduleId: params.id, ...body });
          return { override: presentOverride(override), schedule: presentSchedule(schedule) };
        },
      })
      .route({
        operationId: 'deleteImScheduleOverride',
        method: 'delete',
        path: '/api/im/schedules/{id}/overrides/{overrideId}',
        tags,
        summary: 'Remove an override',
        description: WRITE_NOTE,
        params: OverrideParams,
        errors: ['imScheduleNotFound', 'imTeamWriteDenied', 'notFound', 'conflict'],
        handler: async ({ actor, params }) => {
          await use.removeScheduleOverride.execute(actor, { scheduleId: params.id, overrideId: params.overrideId });
        },
      })
      .route({
        operationId: 'getImScheduleTimeline',
        method: 'get',
        path: '/api/im/schedules/{id}/on-call',
        tags,
        summary: 'Who is on call over a span',
        description: 'The final schedule from from to to: consecutive spans of one person, layers and overrides applied.',
        params: IdParams,
        query: TimelineQuery,
        response: TimelineSchema,
        errors: ['imScheduleNotFound'],
        handler: async ({ actor, params, query }) => {
          const { schedule, from, to, segments } = await use.getScheduleTimeline.execute(actor, { id: params.id, ...query });
          return { scheduleId: schedule.id, from: from.toISOString(), to: to.toISOString(), segments: segments.map(presentSegment) };
        },
      })
      .route({
        operationId: 'createImScheduleCalendarFeed',
        method: 'post',
        path: '/api/im/schedules/{id}/calendar-feed',
        tags,
        summary: 'Subscribe to a schedule in a calendar app',
        description:
          'A secret URL serving the schedule as iCalendar (RFC 5545). The token is answered once and stored as a digest; ' +
          'asking again issues a new URL and retires the old one.',
        params: IdParams,
        response: CalendarFeedSchema,
        errors: ['imScheduleNotFound'],
        handler: async ({ actor, params, req }) => feedAnswer(req, await use.issueCalendarFeed.execute(actor, { scheduleId: params.id })),
      }).router;
  },
);
