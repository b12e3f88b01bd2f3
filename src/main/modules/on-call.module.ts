import { CLOCK } from '../../application/shared/clock';
import { ID_GENERATOR } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../application/shared/transaction';
import { SECRET_TOKENS } from '../../application/identity/ports';
import {
  CALENDAR_FEEDS,
  ESCALATION_DUE_TIMES,
  ESCALATION_LEDGER,
  ESCALATION_POLICY_REPOSITORY,
  IM_PEOPLE,
  PAGING_CONTACTS,
  SCHEDULE_REPOSITORY,
  TEAM_REPOSITORY,
  type ImPeople,
  type ScheduleRepository,
  type TeamRepository,
} from '../../application/on-call/ports';
import { ListImTeams } from '../../application/on-call/list-im-teams';
import { GetImTeam } from '../../application/on-call/get-im-team';
import { CreateImTeam } from '../../application/on-call/create-im-team';
import { UpdateImTeam } from '../../application/on-call/update-im-team';
import { DeleteImTeam } from '../../application/on-call/delete-im-team';
import { SetImTeamMember } from '../../application/on-call/set-im-team-member';
import { RemoveImTeamMember } from '../../application/on-call/remove-im-team-member';
import { ListSchedules } from '../../application/on-call/list-schedules';
import { GetSchedule } from '../../application/on-call/get-schedule';
import { CreateSchedule } from '../../application/on-call/create-schedule';
import { UpdateSchedule } from '../../application/on-call/update-schedule';
import { DeleteSchedule } from '../../application/on-call/delete-schedule';
import { AddScheduleOverride } from '../../application/on-call/add-schedule-override';
import { RemoveScheduleOverride } from '../../application/on-call/remove-schedule-override';
import { GetScheduleTimeline } from '../../application/on-call/get-schedule-timeline';
import { WhoIsOnCall } from '../../application/on-call/who-is-on-call';
import { IssueCalendarFeed } from '../../application/on-call/issue-calendar-feed';
import { ReadCalendarFeed } from '../../application/on-call/read-calendar-feed';
import { ListEscalationPolicies } from '../../application/on-call/list-escalation-policies';
import { GetEscalationPolicy } from '../../application/on-call/get-escalation-policy';
import { CreateEscalationPolicy } from '../../application/on-call/create-escalation-policy';
import { UpdateEscalationPolicy } from '../../application/on-call/update-escalation-policy';
import { DeleteEscalationPolicy } from '../../application/on-call/delete-escalation-policy';
import { RunDueEscalations } from '../../application/on-call/run-due-escalations';
import { EscalationPager } from '../../application/on-call/escalation-pager';
import { EscalateImIncidentNow } from '../../application/on-call/escalate-im-incident-now';
import { IM_INCIDENT_REPOSITORY, IM_TEAM_DIRECTORY } from '../../application/incident-management/ports';
import { DIRECT_DELIVERIES } from '../../application/notifications/ports';
import { SqlTeamRepository } from '../../infrastructure/on-call/sql-team.repository';
import { SqlScheduleRepository } from '../../infrastructure/on-call/sql-schedule.repository';
import { SqlEscalationPolicyRepository } from '../../infrastructure/on-call/sql-escalation-policy.repository';
import { SqlImPeople } from '../../infrastructure/on-call/sql-im-people';
import { SqlCalendarFeeds } from '../../infrastructure/on-call/sql-calendar-feeds';
import { SqlEscalationLedger } from '../../infrastructure/on-call/sql-escalation-ledger';
import { POOL_SQL } from '../tokens';
import type { Clock } from '../../application/shared/clock';
import type { IdGenerator } from '../../application/shared/id-generator';
import type { TargetPolicy } from '../../application/shared/target-policy';
import { NOTIFICATION_TARGET_POLICY } from '../../application/notifications/ports';
import { CONTACT_METHOD_REPOSITORY, type ContactMethodRepository, type PagingContacts } from '../../application/on-call/ports';
import {
  AddContactMethod,
  ListContactMethods,
  RemoveContactMethod,
  UpdateContactMethod,
} from '../../application/on-call/manage-contact-methods';
import { SqlContactMethods } from '../../infrastructure/on-call/sql-contact-methods';
import { PUSH_SUBSCRIPTION_STORE, type PushSubscriptionStore } from '../../application/on-call/push-ports';
import { CREDENTIAL_CIPHER } from '../../application/monitoring/ports';
import type { SecretTokens } from '../../application/identity/ports';
import { bindings, type Ctx } from './bindings';
import { bindWebPush } from './web-push.bindings';
import { pushRouter } from '../../interfaces/http/on-call/push.router';
import { imTeamsRouter } from '../../interfaces/http/on-call/teams.router';
import { imSchedulesRouter } from '../../interfaces/http/on-call/schedules.router';
import { imOnCallRouter } from '../../interfaces/http/on-call/on-call.router';
import { imCalendarFeedRouter, withoutCalendarToken } from '../../interfaces/http/on-call/calendar-feed.router';
import { escalationConfigRouter } from '../../interfaces/http/on-call/escalation-config.router';
import { imEscalateRouter } from '../../interfaces/http/on-call/im-escalate.router';
import { contactMethodsRouter } from '../../interfaces/http/on-call/contact-methods.router';
import { escalationsJob } from '../../interfaces/jobs/escalations.job';
import type { ContextModule } from './context-module';

/** Incident-management teams, on-call schedules, calendar feeds, escalation policies and the escalation runner. */
export const onCallModule = bindings(({ single }) => {
  single(TEAM_REPOSITORY, (c) => new SqlTeamRepository(c.get(POOL_SQL)));
  single(SCHEDULE_REPOSITORY, (c) => new SqlScheduleRepository(c.get(POOL_SQL)));
  single(ESCALATION_POLICY_REPOSITORY, (c) => new SqlEscalationPolicyRepository(c.get(POOL_SQL)));
  // One adapter answers both ports.
  single(SqlImPeople, (c) => new SqlImPeople(c.get(POOL_SQL)));
  single(IM_PEOPLE, (c) => c.get(SqlImPeople));
  single(PAGING_CONTACTS, (c) => c.get(SqlImPeople));
  single(ESCALATION_LEDGER, (c) => new SqlEscalationLedger(c.get(POOL_SQL)));
  single(ESCALATION_DUE_TIMES, (c) => new SqlEscalationLedger(c.get(POOL_SQL)));
  single(CALENDAR_FEEDS, (c) => new SqlCalendarFeeds(c.get(POOL_SQL)));
  const directory = (c: Ctx) => ({
    people: c.get<ImPeople>(IM_PEOPLE),
    schedules: c.get<ScheduleRepository>(SCHEDULE_REPOSITORY),
    teams: c.get<TeamRepository>(TEAM_REPOSITORY),
  });

  single(ListImTeams, (c) => new ListImTeams(c.get(TEAM_REPOSITORY)));
  single(GetImTeam, (c) => new GetImTeam(c.get(TEAM_REPOSITORY)));
  single(
    CreateImTeam,
    (c) => new CreateImTeam(c.get(TEAM_REPOSITORY), c.get(IM_PEOPLE), c.get(ID_GENERATOR), c.get(CLOCK), c.get(TRANSACTION_RUNNER)),
  );
  single(UpdateImTeam, (c) => new UpdateImTeam(c.get(TEAM_REPOSITORY), c.get(CLOCK), c.get(TRANSACTION_RUNNER)));
  single(DeleteImTeam, (c) => new DeleteImTeam(c.get(TEAM_REPOSITORY), c.get(TRANSACTION_RUNNER)));
  single(SetImTeamMember, (c) => new SetImTeamMember(c.get(TEAM_REPOSITORY), c.get(IM_PEOPLE), c.get(CLOCK), c.get(TRANSACTION_RUNNER)));
  single(RemoveImTeamMember, (c) => new RemoveImTeamMember(c.get(TEAM_REPOSITORY), c.get(CLOCK), c.get(TRANSACTION_RUNNER)));

  single(ListSchedules, (c) => new ListSchedules(c.get(SCHEDULE_REPOSITORY), c.get(TEAM_REPOSITORY)));
  single(GetSchedule, (c) => new GetSchedule(c.get(SCHEDULE_REPOSITORY)));
  single(
    CreateSchedule,
    (c) =>
      new CreateSchedule(
        c.get(SCHEDULE_REPOSITORY),
        c.get(TEAM_REPOSITORY),
        c.get(IM_PEOPLE),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
        c.get(TRANSACTION_RUNNER),
      ),
  );
  single(
    UpdateSchedule,
    (c) =>
      new UpdateSchedule(c.get(SCHEDULE_REPOSITORY), c.get(TEAM_REPOSITORY), c.get(IM_PEOPLE), c.get(CLOCK), c.get(TRANSACTION_RUNNER)),
  );
  single(DeleteSchedule, (c) => new DeleteSchedule(c.get(SCHEDULE_REPOSITORY), c.get(TEAM_REPOSITORY), c.get(TRANSACTION_RUNNER)));
  single(
    AddScheduleOverride,
    (c) =>
      new AddScheduleOverride(
        c.get(SCHEDULE_REPOSITORY),
        c.get(TEAM_REPOSITORY),
        c.get(IM_PEOPLE),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
        c.get(TRANSACTION_RUNNER),
      ),
  );
  single(
    RemoveScheduleOverride,
    (c) => new RemoveScheduleOverride(c.get(SCHEDULE_REPOSITORY), c.get(TEAM_REPOSITORY), c.get(TRANSACTION_RUNNER)),
  );
  single(GetScheduleTimeline, (c) => new GetScheduleTimeline(c.get(SCHEDULE_REPOSITORY), c.get(CLOCK)));
  single(WhoIsOnCall, (c) => new WhoIsOnCall(c.get(SCHEDULE_REPOSITORY), c.get(TEAM_REPOSITORY), c.get(CLOCK)));
  single(
    IssueCalendarFeed,
    (c) =>
      new IssueCalendarFeed(
        c.get(SCHEDULE_REPOSITORY),
        c.get(CALENDAR_FEEDS),
        c.get(SECRET_TOKENS),
        c.get(CLOCK),
        c.get(TRANSACTION_RUNNER),
      ),
  );
  single(
    ReadCalendarFeed,
    (c) => new ReadCalendarFeed(c.get(CALENDAR_FEEDS), c.get(SCHEDULE_REPOSITORY), c.get(IM_PEOPLE), c.get(SECRET_TOKENS), c.get(CLOCK)),
  );

  single(ListEscalationPolicies, (c) => new ListEscalationPolicies(c.get(ESCALATION_POLICY_REPOSITORY)));
  single(GetEscalationPolicy, (c) => new GetEscalationPolicy(c.get(ESCALATION_POLICY_REPOSITORY)));
  single(
    CreateEscalationPolicy,
    (c) =>
      new CreateEscalationPolicy(
        c.get(ESCALATION_POLICY_REPOSITORY),
        directory(c),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
        c.get(TRANSACTION_RUNNER),
      ),
  );
  single(
    UpdateEscalationPolicy,
    (c) => new UpdateEscalationPolicy(c.get(ESCALATION_POLICY_REPOSITORY), directory(c), c.get(CLOCK), c.get(TRANSACTION_RUNNER)),
  );
  single(DeleteEscalationPolicy, (c) => new DeleteEscalationPolicy(c.get(ESCALATION_POLICY_REPOSITORY), c.get(TRANSACTION_RUNNER)));
  single(CONTACT_METHOD_REPOSITORY, (c) => new SqlContactMethods(c.get(POOL_SQL), c.get(CREDENTIAL_CIPHER)));
  bindWebPush(single);
  const contactMethodDeps = (c: Ctx) => ({
    methods: c.get<ContactMethodRepository>(CONTACT_METHOD_REPOSITORY),
    people: c.get<ImPeople>(IM_PEOPLE),
    contacts: c.get<PagingContacts>(PAGING_CONTACTS),
    policy: c.get<TargetPolicy>(NOTIFICATION_TARGET_POLICY),
    ids: c.get<IdGenerator>(ID_GENERATOR),
    tokens: c.get<SecretTokens>(SECRET_TOKENS),
    clock: c.get<Clock>(CLOCK),
    pushSubscriptions: c.get<PushSubscriptionStore>(PUSH_SUBSCRIPTION_STORE),
    transactions: c.get<TransactionRunner>(TRANSACTION_RUNNER),
  });
  single(ListContactMethods, (c) => new ListContactMethods(contactMethodDeps(c)));
  single(AddContactMethod, (c) => new AddContactMethod(contactMethodDeps(c)));
  single(UpdateContactMethod, (c) => new UpdateContactMethod(contactMethodDeps(c)));
  single(RemoveContactMethod, (c) => new RemoveContactMethod(contactMethodDeps(c)));
  single(
    EscalationPager,
    (c) =>
      new EscalationPager(
        c.get(SCHEDULE_REPOSITORY),
        c.get(TEAM_REPOSITORY),
        c.get(PAGING_CONTACTS),
        c.get(DIRECT_DELIVERIES),
        c.get(CONTACT_METHOD_REPOSITORY),
      ),
  );
  single(
    EscalateImIncidentNow,
    (c) =>
      new EscalateImIncidentNow(
        c.get(IM_INCIDENT_REPOSITORY),
        c.get(IM_TEAM_DIRECTORY),
        c.get(ESCALATION_LEDGER),
        c.get(ESCALATION_POLICY_REPOSITORY),
        c.get(EscalationPager),
        c.get(TRANSACTION_RUNNER),
        c.get(CLOCK),
      ),
  );
  single(
    RunDueEscalations,
    (c) =>
      new RunDueEscalations(
        c.get(ESCALATION_LEDGER),
        c.get(ESCALATION_POLICY_REPOSITORY),
        c.get(SCHEDULE_REPOSITORY),
        c.get(TEAM_REPOSITORY),
        c.get(PAGING_CONTACTS),
        c.get(DIRECT_DELIVERIES),
        c.get(TRANSACTION_RUNNER),
        c.get(CLOCK),
        c.get(CONTACT_METHOD_REPOSITORY),
      ),
  );
});

export const onCallContext: ContextModule = {
  name: 'on-call',
  bindings: onCallModule,
  routers: [
    imTeamsRouter,
    imSchedulesRouter,
    imOnCallRouter,
    imCalendarFeedRouter,
    escalationConfigRouter,
    contactMethodsRouter,
    imEscalateRouter,
    pushRouter,
  ],
  redactUrl: withoutCalendarToken,
  jobs: [escalationsJob],
};
