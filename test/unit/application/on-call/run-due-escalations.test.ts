import { expect } from 'chai';
import { EscalationPolicy } from '../../../../src/domain/on-call/escalation-policy';
import { Schedule } from '../../../../src/domain/on-call/schedule';
import { Team } from '../../../../src/domain/on-call/teams';
import { RunDueEscalations } from '../../../../src/application/on-call/run-due-escalations';
import { ManualClock } from '../../../support/manual-clock';
import { immediateTransactions } from '../../../support/fakes/shared-fakes';
import { FakeDirectDeliveries } from '../../../support/fakes/notifications-fakes';
import {
  FakeEscalationLedger,
  FakeEscalationPolicies,
  FakePagingContacts,
  FakeSchedules,
  FakeTeams,
} from '../../../support/fakes/on-call-fakes';

const ORG = 7;
const MINUTE = 60_000;

describe('RunDueEscalations (escalating unacknowledged incidents)', () => {
  let clock: ManualClock;
  let ledger: FakeEscalationLedger;
  let deliveries: FakeDirectDeliveries;
  let run: RunDueEscalations;
  const paged = () =>
    deliveries.rows.map((r) => [r.message.recipient.type === 'email' ? r.message.recipient.address : '?', r.message.data?.level]);

  beforeEach(async () => {
    clock = new ManualClock('2026-06-01T10:00:00Z');
    const now = clock.now();
    ledger = new FakeEscalationLedger();
    deliveries = new FakeDirectDeliveries();
    const teams = new FakeTeams();
    const schedules = new FakeSchedules();
    const policies = new FakeEscalationPolicies();
    await teams.add(
      Team.create(
        { id: 'team-1', organizationId: ORG, name: 'SRE', description: null, members: [{ userId: 'cat', imRole: 'member' }] },
        now,
      ),
    );
    await schedules.add(
      Schedule.create(
        {
          id: 'sched-1',
          organizationId: ORG,
          teamId: 'team-1',
          name: 'Primary',
          description: null,
          timezone: 'UTC',
          layers: [
            {
              name: 'L',
              rotationType: 'daily',
              shiftLength: null,
              startsAt: new Date('2026-05-01T00:00:00Z'),
              endsAt: null,
              users: ['bob'],
              restrictions: [],
            },
          ],
        },
        now,
      ),
    );
    await policies.add(
      EscalationPolicy.create(
        {
          id: 'policy-1',
          organizationId: ORG,
          name: 'Default',
          description: null,
          repeatCount: 0,
          levels: [
            { delayMinutes: 5, targets: [{ type: 'user', id: 'ann' }] },
            { delayMinutes: 10, targets: [{ type: 'schedule', id: 'sched-1' }] },
          ],
        },
        now,
      ),
    );
    const contacts = new FakePagingContacts().add(ORG, 'ann', 'Ann').add(ORG, 'bob', 'Bob').add(ORG, 'cat', 'Cat');
    run = new RunDueEscalations(ledger, policies, schedules, teams, contacts, deliveries, immediateTransactions, clock);
    ledger.open({
      id: 'inc-1',
      organizationId: ORG,
      customerId: null,
      title: 'Checkout down',
      escalationPolicyId: 'policy-1',
      openedAt: now,
      acknowledgedAt: null,
      resolvedAt: null,
    });
  });

  it("pages level 1 when the incident opens, and nothing more before level 1's delay passes", async () => {
    expect(await run.execute()).to.deep.equal({ adopted: 1, stepsPaged: 1, pages: 1 });
    clock.advance(4 * MINUTE);
    await run.execute();
    expect(paged()).to.deep.equal([['ann@people.example', 1]]);
    expect(deliveries.rows[0]!.message).to.deep.include({
      event: 'im.incident.escalated',
      incidentId: 'inc-1',
      subject: '[Level 1] Checkout down',
    });
  });

  it("pages level 2 (whoever is on call in its schedule) once level 1's delay passes unacknowledged", async () => {
    await run.execute();
    clock.advance(5 * MINUTE);
    await run.execute();
    expect(paged()).to.deep.equal([
      ['ann@people.example', 1],
      ['bob@people.example', 2],
    ]);
  });

  it('stops the moment someone acknowledges: level 2 is never paged and the row is closed', async () => {
    await run.execute();
    clock.advance(3 * MINUTE);
    ledger.update('inc-1', { acknowledgedAt: clock.now() });
    clock.advance(10 * MINUTE);
    expect(await run.execute()).to.deep.include({ stepsPaged: 0, pages: 0 });
    expect(paged()).to.deep.equal([['ann@people.example', 1]]);
    expect(ledger.rows.get('inc-1')).to.deep.equal({ nextStep: null, nextDueAt: null });
  });

  it('pages the steps missed while no worker ran in one later run, each once however often it runs', async () => {
    clock.advance(6 * MINUTE);
    await run.execute();
    await run.execute();
    expect(paged()).to.deep.equal([
      ['ann@people.example', 1],
      ['bob@people.example', 2],
    ]);
    expect(new Set(deliveries.rows.map((r) => r.message.dedupKey)).size).to.equal(2);
  });

  it('does not start escalating an incident without a policy, nor one whose policy was deleted since', async () => {
    ledger.open({
      id: 'inc-2',
      organizationId: ORG,
      customerId: null,
      title: 'No policy',
      escalationPolicyId: null,
      openedAt: clock.now(),
      acknowledgedAt: null,
      resolvedAt: null,
    });
    ledger.open({
      id: 'inc-3',
      organizationId: ORG,
      customerId: null,
      title: 'Gone',
      escalationPolicyId: 'deleted',
      openedAt: clock.now(),
      acknowledgedAt: null,
      resolvedAt: null,
    });
    await run.execute();
    expect(deliveries.rows.map((r) => r.message.incidentId)).to.deep.equal(['inc-1']);
    expect(ledger.rows.get('inc-3')).to.deep.equal({ nextStep: null, nextDueAt: null });
  });
});
