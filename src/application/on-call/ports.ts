import type { Team } from '../../domain/on-call/teams';
import type { ContactMethod } from '../../domain/incident-management/contact-method';
import type { Schedule } from '../../domain/on-call/schedule';
import type { EscalationPolicy } from '../../domain/on-call/escalation-policy';
import { token } from '../shared/token';
import type { Transaction } from '../shared/transaction';

/**
 * Incident-management teams of an organization. Every method takes the organization: an id of
 * another organization reads as missing. `save` is optimistic: a team changed since it was read
 * answers AppError('conflict').
 */
export interface TeamRepository {
  add(team: Team, tx: Transaction): Promise<void>;
  find(organizationId: number, id: string): Promise<Team | null>;
  list(organizationId: number): Promise<Team[]>;
  /** `list`, the same read on the caller's transaction (a read inside its work). */
  listIn(organizationId: number, tx: Transaction): Promise<Team[]>;
  save(team: Team, tx: Transaction): Promise<void>;
  remove(team: Team, tx: Transaction): Promise<void>;
}
export const TEAM_REPOSITORY = token<TeamRepository>('ImTeamRepository');

/** On-call schedules with their layers and overrides, per organization; optimistic `save` like teams. */
export interface ScheduleRepository {
  add(schedule: Schedule, tx: Transaction): Promise<void>;
  find(organizationId: number, id: string): Promise<Schedule | null>;
  /** Name order; only the team's when teamId is given. */
  list(organizationId: number, filter?: { teamId?: string }): Promise<Schedule[]>;
  /** `list`, the same read on the caller's transaction (a read inside its work). */
  listIn(organizationId: number, filter: { teamId?: string }, tx: Transaction): Promise<Schedule[]>;
  save(schedule: Schedule, tx: Transaction): Promise<void>;
  remove(schedule: Schedule, tx: Transaction): Promise<void>;
}
export const SCHEDULE_REPOSITORY = token<ScheduleRepository>('ImScheduleRepository');

export interface EscalationPolicyRepository {
  add(policy: EscalationPolicy, tx: Transaction): Promise<void>;
  find(organizationId: number, id: string): Promise<EscalationPolicy | null>;
  /** `find`, the same read on the caller's transaction (a read inside its work). */
  findIn(organizationId: number, id: string, tx: Transaction): Promise<EscalationPolicy | null>;
  list(organizationId: number): Promise<EscalationPolicy[]>;
  save(policy: EscalationPolicy, tx: Transaction): Promise<void>;
  remove(policy: EscalationPolicy, tx: Transaction): Promise<void>;
}
export const ESCALATION_POLICY_REPOSITORY = token<EscalationPolicyRepository>('EscalationPolicyRepository');

/** The people IM rules name: users of the organization. */
export interface ImPeople {
  /** The users among `userIds` that belong to the organization, with their display names. */
  named(organizationId: number, userIds: readonly string[]): Promise<Map<string, string>>;
  /** Whether the organization has incident management switched on (callers without a session, such as calendar apps). */
  imEnabled(organizationId: number): Promise<boolean>;
}
export const IM_PEOPLE = token<ImPeople>('ImPeople');

/** What a calendar feed shows: one schedule, or one user across every schedule of the organization. */
export type CalendarSubject =
  { readonly scheduleId: string; readonly userId: null } | { readonly scheduleId: null; readonly userId: string };

export interface CalendarFeed {
  readonly organizationId: number;
  readonly subject: CalendarSubject;
  readonly tokenHash: string;
  readonly createdAt: Date;
}

/** Feed tokens, kept as digests. One feed per schedule and per user: issuing a new one retires the old URL. */
export interface CalendarFeeds {
  replace(feed: CalendarFeed, tx: Transaction): Promise<void>;
  findByTokenHash(tokenHash: string): Promise<CalendarFeed | null>;
}
export const CALENDAR_FEEDS = token<CalendarFeeds>('ImCalendarFeeds');

/** An IM incident as escalation needs it (owned by the IM incidents context; read, never written here). */
export interface EscalatingIncident {
  /** Public id (uuid). */
  readonly id: string;
  readonly organizationId: number;
  readonly customerId: number | null;
  readonly title: string;
  readonly escalationPolicyId: string | null;
  readonly openedAt: Date;
  readonly acknowledgedAt: Date | null;
  /** Resolved, or merged into another (either closes it). */
  readonly resolvedAt: Date | null;
}

/** An incident's escalation as stored: the next step of its policy's chain and when it is due (null: done). */
export interface DueEscalation {
  readonly incident: EscalatingIncident;
  readonly nextStep: number;
  readonly nextDueAt: Date;
}

/**
 * The durable escalation ledger: one row per escalating incident. Steps are claimed row by row
 * (locked until the transaction ends, skipped by other workers), so across workers and restarts a
 * step is paged by one run, and a step due while no worker ran is paged by the next one.
 */
export interface EscalationLedger {
  /** Starts escalating open, unacknowledged incidents with a policy that have no row yet (step 0, due when they opened). */
  adoptNew(now: Date, tx: Transaction): Promise<number>;
  /** Due rows with their incidents, locked for the current transaction. */
  claimDue(now: Date, limit: number, tx: Transaction): Promise<DueEscalation[]>;
  /** Moves the incident's row to its next step, or marks it done (null). */
  advance(incidentId: string, next: { step: number; dueAt: Date } | null, now: Date, tx: Transaction): Promise<void>;
  /**
   * The incident's row for a manual escalation, locked for the current transaction; created (step 0,
   * due when it opened) if the job has not adopted the incident yet. nextStep null: the chain is done.
   */
  claimIncident(
    organizationId: number,
    incidentId: string,
    now: Date,
    tx: Transaction,
  ): Promise<{ incident: EscalatingIncident; nextStep: number | null } | null>;
}
export const ESCALATION_LEDGER = token<EscalationLedger>('EscalationLedger');

/**
 * When the escalation job next has work: the soonest due step, an open incident with a policy not
 * adopted yet, or a monitor storm all recovered whose IM incident is still open (both: now). Null
 * when nothing waits.
 */
export interface EscalationDueTimes {
  nextDueAt(now: Date): Promise<Date | null>;
}
export const ESCALATION_DUE_TIMES = token<EscalationDueTimes>('EscalationDueTimes');

/** How to reach a person paged. */
export interface PagingContact {
  readonly name: string;
  readonly email: string;
}

export interface PagingContacts {
  /** Active users of the organization among `userIds`, with their e-mail addresses. */
  contacts(organizationId: number, userIds: readonly string[]): Promise<Map<string, PagingContact>>;
  /** `contacts`, the same read on the caller's transaction (a read inside its work). */
  contactsIn(organizationId: number, userIds: readonly string[], tx: Transaction): Promise<Map<string, PagingContact>>;
}
export const PAGING_CONTACTS = token<PagingContacts>('PagingContacts');

/**
 * Users' contact methods (the account e-mail appears only when its user switched it off or on
 * explicitly: a stored row with id ACCOUNT_EMAIL_METHOD). Every method names the organization.
 */
export interface ContactMethodRepository {
  list(organizationId: number, userId: string): Promise<ContactMethod[]>;
  /** A stored method by its uuid; null when missing or another organization's. */
  find(organizationId: number, id: string): Promise<ContactMethod | null>;
  /** Adds or replaces (by id and user; the account e-mail's row is one per user). */
  put(method: ContactMethod, tx: Transaction): Promise<void>;
  remove(organizationId: number, userId: string, id: string, tx: Transaction): Promise<void>;
  /** The stored methods of these users, by user (what a page fans out to). */
  ofUsers(organizationId: number, userIds: readonly string[]): Promise<Map<string, ContactMethod[]>>;
  /** `ofUsers`, the same read on the caller's transaction (a read inside its work). */
  ofUsersIn(organizationId: number, userIds: readonly string[], tx: Transaction): Promise<Map<string, ContactMethod[]>>;
}
export const CONTACT_METHOD_REPOSITORY = token<ContactMethodRepository>('ContactMethodRepository');
