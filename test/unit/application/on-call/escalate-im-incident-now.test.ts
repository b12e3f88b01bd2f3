import { expect } from 'chai';
import { EscalationPolicy } from '../../../../src/domain/on-call/escalation-policy';
import { ImIncident } from '../../../../src/domain/incident-management/im-incident';
import { EscalateImIncidentNow } from '../../../../src/application/on-call/escalate-im-incident-now';
import { EscalationPager } from '../../../../src/application/on-call/escalation-pager';
import { RunDueEscalations } from '../../../../src/application/on-call/run-due-escalations';
import { anActor } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';
import { ManualClock } from '../../../support/manual-clock';
import { immediateTransactions } from '../../../support/fakes/shared-fakes';
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
const MINUTE = 60_000;
const INCIDENT = '00000000-0000-4000-8000-000000000001';

describe('EscalateImIncidentNow (page the next escalation level at once)', () => {
  let clock: ManualClock;
  let incidents: FakeImIncidents;
  let ledger: FakeEscalationLedger;
  let deliveries: FakeDirectDeliveries;
  let escalateNow: EscalateImIncidentNow;
  let job: RunDueEscalations;
  const admin = anActor().build();
  const outsider = anActor().with({ role: 'responder', userId: 'outsider' }).build();
  const stranger = anActor().inOrganization(2).build();
  const paged = () =>
    deliveries.rows.map((r) => [r.message.recipient.type === 'email' ? r.message.recipient.address : '?', r.message.data?.level]);

  beforeEach(async () => {
    clock = new ManualClock('2026-06-01T10:00:00Z');
    const now = clock.now();
    incidents = new FakeImIncidents();
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
      immediateTransactions,
      clock,
    );
    job = new RunDueEscalations(ledger, policies, schedules, teams, contacts, deliveries, immediateTransactions, clock);
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

  const timeline = async () =>
    (await incidents.timeline(admin.scope, (await incidents.findByRef(admin.scope, INCIDENT))!))
      .filter((e) => e.kind === 'escalated')
      .map((e) => e.details);

  it('pages level 1 of an incident the job has not adopted yet, and the job does not page it again', async () => {
    await escalateNow.execute(admin, INCIDENT);
    expect(paged()).to.deep.equal([['ann@people.example', 1]]);
    expect(await timeline()).to.deep.equal([{ level: 1, pages: 1 }]);
    expect(ledger.rows.get(INCIDENT)).to.deep.equal({ nextStep: 1, nextDueAt: new Date(clock.now().getTime() + 5 * MINUTE) });
    await job.execute();
    expect(paged()).to.have.length(1);
  });

  it('pages the next level before its delay ends; the job then keeps the later times', async () => {
    await job.execute();
    clock.advance(1 * MINUTE);
    await escalateNow.execute(admin, INCIDENT);
    expect(paged()).to.deep.equal([
      ['ann@people.example', 1],
      ['bob@people.example', 2],
    ]);
    expect(ledger.rows.get(INCIDENT)).to.deep.equal({ nextStep: null, nextDueAt: null });
    clock.advance(30 * MINUTE);
    await job.execute();
    expect(paged()).to.have.length(2);
  });

  it('pages the last level again once the chain is exhausted', async () => {
    await escalateNow.execute(admin, INCIDENT);
    await escalateNow.execute(admin, INCIDENT);
    clock.advance(1 * MINUTE);
    await escalateNow.execute(admin, INCIDENT);
    expect(paged()).to.deep.equal([
      ['ann@people.example', 1],
      ['bob@people.example', 2],
      ['bob@people.example', 2],
    ]);
    expect(await timeline()).to.deep.equal([
      { level: 1, pages: 1 },
      { level: 2, pages: 1 },
      { level: 2, pages: 1 },
    ]);
  });

  it('refuses a closed incident (imIncidentAlreadyClosed), a non-member (imTeamMembershipRequired), another organization (imIncidentNotFound)', async () => {
    expect(await codeOf(escalateNow.execute(outsider, INCIDENT))).to.equal('imTeamMembershipRequired');
    expect(await codeOf(escalateNow.execute(stranger, INCIDENT))).to.equal('imIncidentNotFound');
    const incident = (await incidents.findByRef(admin.scope, INCIDENT))!;
    incident.resolve(null, clock.now());
    await incidents.save(admin.scope, incident);
    expect(await codeOf(escalateNow.execute(admin, INCIDENT))).to.equal('imIncidentAlreadyClosed');
    expect(deliveries.rows).to.have.length(0);
  });

  it('refuses a caller the role gates keep from escalating (imIncident.escalate): a read-only user, before it reads the incident', async () => {
    const readonly = anActor().with({ role: 'readonly', userId: 'member-1' }).build();
    expect(await codeOf(escalateNow.execute(readonly, INCIDENT))).to.equal('imAccessDenied');
    expect(await codeOf(escalateNow.execute(readonly, '00000000-0000-4000-8000-00000000dead'))).to.equal('imAccessDenied');
    expect(deliveries.rows).to.have.length(0);
  });
});
