import type { Team } from '../../domain/incident-management/teams';
import type { Schedule } from '../../domain/incident-management/schedule';
import type { EscalationPolicy } from '../../domain/incident-management/escalation-policy';

/**
 * Incident-management teams of an organization. Every method takes the organization: an id of
 * another organization reads as missing. `save` is optimistic: a team changed since it was read
 * answers AppError('conflict').
 */
export interface TeamRepository {
  add(team: Team): Promise<void>;
  find(organizationId: number, id: string): Promise<Team | null>;
  list(organizationId: number): Promise<Team[]>;
  save(team: Team): Promise<void>;
  remove(team: Team): Promise<void>;
}
export const TEAM_REPOSITORY = Symbol.for('ImTeamRepository');

/** On-call schedules with their layers and overrides, per organization; optimistic `save` like teams. */
export interface ScheduleRepository {
  add(schedule: Schedule): Promise<void>;
  find(organizationId: number, id: string): Promise<Schedule | null>;
  /** Name order; only the team's when teamId is given. */
  list(organizationId: number, filter?: { teamId?: string }): Promise<Schedule[]>;
  save(schedule: Schedule): Promise<void>;
  remove(schedule: Schedule): Promise<void>;
}
export const SCHEDULE_REPOSITORY = Symbol.for('ImScheduleRepository');

export interface EscalationPolicyRepository {
  add(policy: EscalationPolicy): Promise<void>;
  find(organizationId: number, id: string): Promise<EscalationPolicy | null>;
  list(organizationId: number): Promise<EscalationPolicy[]>;
  save(policy: EscalationPolicy): Promise<void>;
  remove(policy: EscalationPolicy): Promise<void>;
}
export const ESCALATION_POLICY_REPOSITORY = Symbol.for('EscalationPolicyRepository');

/** The people IM rules name: users of the organization. */
export interface ImPeople {
  /** The users among `userIds` that belong to the organization, with their display names. */
  named(organizationId: number, userIds: readonly string[]): Promise<Map<string, string>>;
  /** Whether the organization has incident management switched on (callers without a session, such as calendar apps). */
  imEnabled(organizationId: number): Promise<boolean>;
}
export const IM_PEOPLE = Symbol.for('ImPeople');

/** What a calendar feed shows: one schedule, or one user across every schedule of the organization. */
export type CalendarSubject = { readonly scheduleId: string; readonly userId: null } | { readonly scheduleId: null; readonly userId: string };

export interface CalendarFeed {
  readonly organizationId: number;
  readonly subject: CalendarSubject;
  readonly tokenHash: string;
  readonly createdAt: Date;
}

/** Feed tokens, kept as digests. One feed per schedule and per user: issuing a new one retires the old URL. */
export interface CalendarFeeds {
  replace(feed: CalendarFeed): Promise<void>;
  findByTokenHash(tokenHash: string): Promise<CalendarFeed | null>;
}
export const CALENDAR_FEEDS = Symbol.for('ImCalendarFeeds');
