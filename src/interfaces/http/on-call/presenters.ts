import type { Team } from '../../../domain/on-call/teams';
import type { Schedule, ScheduleOverride } from '../../../domain/on-call/schedule';
import type { EscalationPolicy } from '../../../domain/on-call/escalation-policy';
import type { OnCallSegment, OnCallSource } from '../../../domain/on-call/on-call';
import type { ScheduleOnCall } from '../../../application/on-call/who-is-on-call';

const iso = (d: Date) => d.toISOString();

export const presentTeam = (team: Team) => ({
  id: team.id,
  name: team.name,
  description: team.description,
  members: team.members.map((m) => ({ userId: m.userId, imRole: m.imRole })),
  createdAt: iso(team.createdAt),
  updatedAt: iso(team.updatedAt),
});

export const presentOverride = (o: ScheduleOverride) => ({
  id: o.id,
  userId: o.userId,
  start: iso(o.start),
  end: iso(o.end),
  createdAt: iso(o.createdAt),
});

export const presentSchedule = (schedule: Schedule) => ({
  id: schedule.id,
  teamId: schedule.teamId,
  name: schedule.name,
  description: schedule.description,
  timezone: schedule.timezone,
  layers: schedule.layers.map((l) => ({
    name: l.name,
    rotationType: l.rotationType,
    shiftLength: l.shiftLength ? { count: l.shiftLength.count, unit: l.shiftLength.unit } : null,
    startsAt: iso(l.startsAt),
    endsAt: l.endsAt ? iso(l.endsAt) : null,
    users: [...l.users],
    restrictions: l.restrictions.map((r) => ({ daysOfWeek: [...r.daysOfWeek], startTime: r.startTime, endTime: r.endTime })),
  })),
  overrides: schedule.overrides.map(presentOverride),
  createdAt: iso(schedule.createdAt),
  updatedAt: iso(schedule.updatedAt),
});

const presentSource = (source: OnCallSource) =>
  source.type === 'layer'
    ? { type: 'layer' as const, layerIndex: source.layerIndex }
    : { type: 'override' as const, overrideId: source.overrideId };

export const presentScheduleOnCall = ({ schedule, onCall }: ScheduleOnCall) => ({
  scheduleId: schedule.id,
  scheduleName: schedule.name,
  teamId: schedule.teamId,
  onCall: onCall ? { userId: onCall.userId, source: presentSource(onCall.source), until: onCall.until ? iso(onCall.until) : null } : null,
});

export const presentSegment = (s: OnCallSegment) => ({
  userId: s.userId,
  start: iso(s.start),
  end: iso(s.end),
  source: presentSource(s.source),
});

export const presentPolicy = (policy: EscalationPolicy) => ({
  id: policy.id,
  name: policy.name,
  description: policy.description,
  levels: policy.levels.map((l) => ({ delayMinutes: l.delayMinutes, targets: l.targets.map((t) => ({ type: t.type, id: t.id })) })),
  repeatCount: policy.repeatCount,
  createdAt: iso(policy.createdAt),
  updatedAt: iso(policy.updatedAt),
});
