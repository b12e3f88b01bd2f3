import { EscalateImIncidentNow } from '../../../src/application/on-call/escalate-im-incident-now';
import { EscalationPager } from '../../../src/application/on-call/escalation-pager';
import { RunDueEscalations } from '../../../src/application/on-call/run-due-escalations';
import type { Actor } from '../../../src/application/shared/actor';
import type { TransactionRunner } from '../../../src/application/shared/transaction';
import { EscalationPolicy, type EscalationLevel } from '../../../src/domain/on-call/escalation-policy';
import { ManualClock } from '../manual-clock';
import { anImIncident } from './im-incident';
import { immediateTransactions } from '../fakes/shared-fakes';
import { FakeDirectDeliveries } from '../fakes/notifications-fakes';
import { FakeImIncidents, FakeImTeams } from '../fakes/incident-management-fakes';
import {
  FakeContactMethods,
  FakeEscalationLedger,
  FakeEscalationPolicies,
  FakePagingContacts,
  FakeSchedules,
  FakeTeams,
} from '../fakes/on-call-fakes';

/** The incident the escalation tests page about. */
export const ON_CALL_INCIDENT = '00000000-0000-4000-8000-000000000001';

export interface OnCallWorldOptions {
  /** The clock's start (2026-06-01T10:00:00Z). */
  readonly now?: Date | string;
  /** The runner the use cases open their transactions with (one that runs at once). */
  readonly tx?: TransactionRunner;
  /** The organization the policies, contacts and incidents belong to (1). */
  readonly organizationId?: number;
}

/**
 * The on-call context on its fakes, wired as the composition root wires it: teams, schedules,
 * escalation policies, paging contacts and their contact methods, the escalation ledger, the direct
 * deliveries the pages go out on, the IM incidents and teams, and the escalation job and "escalate
 * now" over them. Add a policy with `policy`, contacts with `contact`, a ledger row with `open`.
 */
export function anOnCallWorld(options: OnCallWorldOptions = {}) {
  const organizationId = options.organizationId ?? 1;
  const clock = new ManualClock(options.now ?? '2026-06-01T10:00:00Z');
  const tx = options.tx ?? immediateTransactions;
  const incidents = new FakeImIncidents();
  const imTeams = new FakeImTeams();
  const ledger = new FakeEscalationLedger();
  const deliveries = new FakeDirectDeliveries();
  const schedules = new FakeSchedules();
  const teams = new FakeTeams();
  const policies = new FakeEscalationPolicies();
  const contacts = new FakePagingContacts();
  const methods = new FakeContactMethods();
  const pager = new EscalationPager(schedules, teams, contacts, deliveries, methods);
  const world = {
    organizationId,
    clock,
    tx,
    incidents,
    imTeams,
    ledger,
    deliveries,
    schedules,
    teams,
    policies,
    contacts,
    methods,
    pager,
    escalateNow: new EscalateImIncidentNow(incidents, imTeams, ledger, policies, pager, tx, clock),
    job: new RunDueEscalations(ledger, policies, schedules, teams, contacts, deliveries, tx, clock, methods),
    /** Who was paged, by e-mail address (`?` for another recipient), and at which level. */
    paged: () =>
      deliveries.rows.map((r) => [r.message.recipient.type === 'email' ? r.message.recipient.address : '?', r.message.data?.level]),
    /** The escalation policy `policy-1` ("Default") of the organization, created now. */
    async policy(levels: EscalationLevel[], repeatCount = 0) {
      await policies.add(
        EscalationPolicy.create({ id: 'policy-1', organizationId, name: 'Default', description: null, repeatCount, levels }, clock.now()),
      );
      return world;
    },
    /** People the pages can reach (at `<user>@people.example`). */
    contact(...people: Array<[userId: string, name: string]>) {
      for (const [userId, name] of people) contacts.add(organizationId, userId, name);
      return world;
    },
    /** An unacknowledged incident opened now in the ledger, on `policy-1` unless told otherwise. */
    open(id: string, title: string, escalationPolicyId: string | null = 'policy-1') {
      ledger.open({
        id,
        organizationId,
        customerId: null,
        title,
        escalationPolicyId,
        openedAt: clock.now(),
        acknowledgedAt: null,
        resolvedAt: null,
      });
      return world;
    },
  };
  return world;
}

/**
 * The on-call world "escalate now" is tried in: policy-1 pages Ann after 5 minutes, then Bob after
 * 10; IM team `team-a`; and `ON_CALL_INCIDENT` ("Checkout down", on policy-1 and team-a) triggered
 * now, stored for `actor` and opened in the ledger.
 */
export async function anEscalatingWorld(actor: Actor, options: OnCallWorldOptions = {}) {
  const world = anOnCallWorld(options);
  await world.policy([
    { delayMinutes: 5, targets: [{ type: 'user', id: 'ann' }] },
    { delayMinutes: 10, targets: [{ type: 'user', id: 'bob' }] },
  ]);
  world.contact(['ann', 'Ann'], ['bob', 'Bob']);
  world.imTeams.team(world.organizationId, 'team-a', ['member-1']);
  await world.incidents.add(
    actor.scope,
    anImIncident('triggered', world.clock.now(), {
      publicId: ON_CALL_INCIDENT,
      organizationId: world.organizationId,
      title: 'Checkout down',
      teamId: 'team-a',
      escalationPolicyId: 'policy-1',
    }),
  );
  return world.open(ON_CALL_INCIDENT, 'Checkout down');
}

export type OnCallWorld = ReturnType<typeof anOnCallWorld>;
