import { expect } from 'chai';
import { EscalationPolicy } from '../../../../src/domain/on-call/escalation-policy';
import { ImIncident } from '../../../../src/domain/incident-management/im-incident';
import { EscalateImIncidentNow } from '../../../../src/application/on-call/escalate-im-incident-now';
import { EscalationPager } from '../../../../src/application/on-call/escalation-pager';
import { RunDueEscalations } from '../../../../src/application/on-call/run-due-escalations';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';
import { FakeDirectDeliveries } from '../../../support/fakes/notifications-fakes';
import { FakeImIncidents, FakeImTeams } from '../../../support/fakes/incident-management-fakes';
import {
  FakeEscalationLedger,
  FakeEscalationPolicies,
  FakePagingContacts,
  FakeSchedules,
  FakeTeams,
} from '../../../support/fakes/on-call-fakes';

const ORG = 1;
const INCIDENT = '00000000-0000-4000-8000-000000000001';

/** The escalation job and "escalate now" hand the runner's transaction to the ledger and the incident (docs/architecture.md). */
describe('on-call use cases: ledger and incident writes join the transaction they run in', () => {
  let clock: ManualClock;
  let incidents: FakeImIncidents;
  let ledger: FakeEscalationLedger;
  let deliveries: FakeDirectDeliveries;
  let escalateNow: EscalateImIncidentNow;
  let job: RunDueEscalations;
  let transactions: ReturnType<typeof recordedTransactions>;
  const admin = anActor().build();
  const paged = () =>
    deliveries.rows.map((r) => [r.message.recipient.type === 'email' ? r.message.recipient.address : '?', r.message.data?.level]);

  beforeEach(async () => {
    clock = new ManualClock('2026-06-01T10:00:00Z');
    const now = clock.now();
    incidents = new FakeImIncidents();
    transactions = recordedTransactions();
    ledger = new FakeEscalationLedger();
    deliveries = new FakeDirectDeliveries();
    const schedules = new FakeSchedules();
    const teams = new FakeTeams();
    const policies = new FakeEscalationPolicies();
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
            { delayMinutes: 10, targets: [{ type: 'user', id: 'bob' }] },
          ],
        },
        now,
      ),
    );
    const contacts = new FakePagingContacts().add(ORG, 'ann', 'Ann').add(ORG, 'bob', 'Bob');
    const imTeams = new FakeImTeams().team(ORG, 'team-a', ['member-1']);
    escalateNow = new EscalateImIncidentNow(
      incidents,
      imTeams,
      ledger,
      policies,
      new EscalationPager(schedules, teams, contacts, deliveries),
      transactions,
      clock,
    );
    job = new RunDueEscalations(ledger, policies, schedules, teams, contacts, deliveries, transactions, clock);
    await incidents.add(
      admin.scope,
      ImIncident.trigger({
        publicId: INCIDENT,
        organizationId: ORG,
        title: 'Checkout down',
        description: null,
        severity: 'critical',
        source: null,
        teamId: 'team-a',
        customerId: null,
        escalationPolicyId: 'policy-1',
        dedupKey: 'k',
        createdByUserId: null,
        now,
      }),
    );
    ledger.open({
      id: INCIDENT,
      organizationId: ORG,
      customerId: null,
      title: 'Checkout down',
      escalationPolicyId: 'policy-1',
      openedAt: now,
      acknowledgedAt: null,
      resolvedAt: null,
    });
  });

  it('the job adopts new incidents in a transaction of its own, then claims due rows and moves them on in the transaction of their batch', async () => {
    await job.execute();
    expect(paged()).to.have.length(1);
    expect(ledger.calls.map(({ call }) => call)).to.deep.equal(['adoptNew', 'claimDue', 'advance']);
    expect(transactions.handed).to.have.length(2);
    const [adoptedIn, batch] = transactions.handed;
    expect(ledger.calls.map(({ tx }) => tx)).to.deep.equal([adoptedIn, batch, batch]);
    // The page goes out with the step it tells of.
    expect(deliveries.enqueuedIn).to.deep.equal([batch]);
  });

  it('escalating now claims the row, advances it and saves the incident in its one transaction', async () => {
    incidents.writes.length = 0;
    await escalateNow.execute(admin, INCIDENT);
    expect(paged()).to.have.length(1);
    expect(transactions.handed).to.have.length(1);
    const tx = transactions.handed[0];
    expect(ledger.calls.map(({ call }) => call)).to.deep.equal(['claimIncident', 'advance']);
    expect(ledger.calls.every((c) => c.tx === tx)).to.equal(true);
    expect(incidents.writes).to.deep.equal([{ write: 'save', tx }]);
    expect(deliveries.enqueuedIn).to.deep.equal([tx]);
  });
});
