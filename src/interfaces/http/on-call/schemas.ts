import { z } from 'zod';
import 'zod-openapi';
import { IM_ROLES } from '../../../domain/on-call/teams';
import { ROTATION_TYPES, SHIFT_UNITS } from '../../../domain/on-call/rotation';
import { Clock, Description, Instant, Name, Ref, TimeZone, UserRef } from './fields';

export const IdParams = z.object({ id: Ref });
export const MemberParams = z.object({ id: Ref, userId: Ref });
export const OverrideParams = z.object({ id: Ref, overrideId: Ref });
export const TokenParams = z.object({ token: z.string().min(1).max(200) });

const ImRole = z.enum(IM_ROLES).meta({ description: "`admin`: manages the team's members and schedules; `member`: is on the team" });

export const CreateTeamBody = z
  .object({
    name: Name,
    description: Description.default(null),
    members: z
      .array(z.object({ userId: UserRef, imRole: ImRole.default('member') }).strict())
      .max(500)
      .default([]),
  })
  .strict()
  .meta({ id: 'ImTeamCreate' });

export const UpdateTeamBody = z
  .object({ name: Name.optional(), description: Description.optional() })
  .strict()
  .meta({ id: 'ImTeamUpdate' });
export const SetMemberBody = z.object({ imRole: ImRole }).strict().meta({ id: 'ImTeamMemberSet' });

export const TeamSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    members: z.array(z.object({ userId: z.string(), imRole: z.enum(IM_ROLES) })),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'ImTeam' });

const Restriction = z
  .object({
    daysOfWeek: z
      .array(z.number().int().min(1).max(7))
      .min(1)
      .max(7)
      .default([1, 2, 3, 4, 5, 6, 7])
      .meta({ description: 'ISO weekdays the span starts on, 1 = Monday ... 7 = Sunday (default every day)' }),
    startTime: Clock.meta({ description: 'Local start, HH:mm' }),
    endTime: Clock.meta({ description: 'Local end, HH:mm; at or before startTime it runs into the next day' }),
  })
  .strict()
  .meta({ id: 'ImLayerRestriction' });

const Layer = z
  .object({
    name: Name,
    rotationType: z.enum(ROTATION_TYPES).meta({ description: '`daily`, `weekly`, or `custom` with shiftLength' }),
    shiftLength: z
      .object({
        count: z.number().int().min(1).max(1000),
        unit: z.enum(SHIFT_UNITS).meta({ description: '`hours` are fixed durations; `days` and `weeks` keep the local hand-off time' }),
      })
      .strict()
      .nullable()
      .default(null)
      .meta({ description: 'Length of each shift of a custom rotation' }),
    startsAt: Instant.meta({ description: 'First hand-off; its local time (and weekday) is the hand-off time of every shift' }),
    endsAt: Instant.nullable().default(null).meta({ description: 'The layer stops here (null: runs on)' }),
    users: z.array(UserRef).min(1).max(100).meta({ description: 'Turn order: one shift each, then again from the first' }),
    restrictions: z
      .array(Restriction)
      .max(20)
      .default([])
      .meta({ description: 'Hours of the day / days of the week the layer covers; none = always' }),
  })
  .strict()
  .meta({ id: 'ImScheduleLayerInput' });

const Layers = z
  .array(Layer)
  .max(10)
  .meta({ description: 'Lowest first: a later layer covers the earlier ones wherever it has someone on call' });

export const CreateScheduleBody = z
  .object({
    teamId: Ref.meta({ description: "The owning team (imTeamNotFound when not the organization's)" }),
    name: Name,
    description: Description.default(null),
    timezone: TimeZone.default('UTC'),
    layers: Layers.default([]),
  })
  .strict()
  .meta({ id: 'ImScheduleCreate' });

export const UpdateScheduleBody = z
  .object({
    teamId: Ref.optional(),
    name: Name.optional(),
    description: Description.optional(),
    timezone: TimeZone.optional(),
    layers: Layers.optional().meta({ description: 'Replaces every layer' }),
  })
  .strict()
  .meta({ id: 'ImScheduleUpdate' });

export const OverrideBody = z
  .object({
    userId: UserRef,
    start: Instant,
    end: Instant.meta({ description: 'After start' }),
  })
  .strict()
  .meta({ id: 'ImScheduleOverrideCreate' });

const OverrideSchema = z
  .object({
    id: z.uuid(),
    userId: z.string(),
    start: z.iso.datetime(),
    end: z.iso.datetime(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'ImScheduleOverride' });

export const ScheduleSchema = z
  .object({
    id: z.uuid(),
    teamId: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    timezone: z.string(),
    layers: z.array(
      z.object({
        name: z.string(),
        rotationType: z.enum(ROTATION_TYPES),
        shiftLength: z.object({ count: z.number(), unit: z.enum(SHIFT_UNITS) }).nullable(),
        startsAt: z.iso.datetime(),
        endsAt: z.iso.datetime().nullable(),
        users: z.array(z.string()),
        restrictions: z.array(z.object({ daysOfWeek: z.array(z.number()), startTime: z.string(), endTime: z.string() })),
      }),
    ),
    overrides: z.array(OverrideSchema),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'ImSchedule' });

export const OverrideCreatedSchema = z
  .object({ override: OverrideSchema, schedule: ScheduleSchema })
  .meta({ id: 'ImScheduleOverrideCreated' });

export const ListSchedulesQuery = z.object({ teamId: Ref.optional().meta({ description: "Only this team's schedules" }) }).strict();

export const OnCallQuery = z
  .object({
    at: Instant.optional().meta({ description: 'The instant to ask about (default now)' }),
    scheduleId: Ref.optional().meta({ description: 'Only this schedule' }),
    teamId: Ref.optional().meta({ description: "Only this team's schedules" }),
  })
  .strict();

export const TimelineQuery = z
  .object({
    from: Instant.optional().meta({ description: 'Default now' }),
    to: Instant.optional().meta({ description: 'Default from + 14 days; at most 92 days after from' }),
  })
  .strict();

const Source = z
  .object({
    type: z.enum(['layer', 'override']),
    layerIndex: z.number().int().optional().meta({ description: 'For `layer`: index into layers, lowest 0' }),
    overrideId: z.uuid().optional().meta({ description: 'For `override`' }),
  })
  .meta({ id: 'ImOnCallSource' });

export const OnCallSchema = z
  .object({
    at: z.iso.datetime(),
    schedules: z.array(
      z.object({
        scheduleId: z.uuid(),
        scheduleName: z.string(),
        teamId: z.uuid(),
        onCall: z
          .object({
            userId: z.string(),
            source: Source,
            until: z.iso.datetime().nullable().meta({ description: "When this person's time on call ends (null: not within 35 days)" }),
          })
          .nullable()
          .meta({ description: 'null: nobody is on call at that instant' }),
      }),
    ),
  })
  .meta({ id: 'ImOnCall' });

export const TimelineSchema = z
  .object({
    scheduleId: z.uuid(),
    from: z.iso.datetime(),
    to: z.iso.datetime(),
    segments: z.array(z.object({ userId: z.string(), start: z.iso.datetime(), end: z.iso.datetime(), source: Source })),
  })
  .meta({ id: 'ImOnCallTimeline' });

export const CalendarFeedSchema = z
  .object({
    token: z.string().meta({ description: 'Shown once; stored only as a digest' }),
    url: z.string().meta({ description: 'Subscribe to this URL in a calendar app (iCalendar, RFC 5545)' }),
  })
  .meta({ id: 'ImCalendarFeed' });
