import { expect } from 'chai';
import type { AddImIncidentResponder } from '../../../../src/application/incident-management/add-im-incident-responder';
import { anActor } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';
import type { ManualClock } from '../../../support/manual-clock';
import { anIncidentManagementWorld } from '../../../support/builders/incident-management';
import { anImIncident } from '../../../support/builders/im-incident';
import type { FakeDirectDeliveries } from '../../../support/fakes/notifications-fakes';
import type { FakeImIncidents } from '../../../support/fakes/incident-management-fakes';
import type { FakeContactMethods } from '../../../support/fakes/on-call-fakes';

const ORG = 1;
const INCIDENT = '00000000-0000-4000-8000-000000000001';

describe('AddImIncidentResponder', () => {
  let clock: ManualClock;
  let incidents: FakeImIncidents;
  let deliveries: FakeDirectDeliveries;
  let add: AddImIncidentResponder;
  let methods: FakeContactMethods;
  const admin = anActor().build();
  const teamAdmin = anActor().with({ role: 'responder', userId: 'lead' }).build();
  const member = anActor().with({ role: 'responder', userId: 'member-1' }).build();
  const outsider = anActor().with({ role: 'responder', userId: 'outsider' }).build();
  const stranger = anActor().inOrganization(2).build();

  beforeEach(async () => {
    const world = anIncidentManagementWorld({ now: '2026-06-01T10:00:00Z' });
    ({ clock, incidents, deliveries, methods, addResponder: add } = world);
    world.teams.team(ORG, 'team-a', ['member-1']).teamAdmin('team-a', 'lead');
    world.responders.user(ORG, 'dana', 'Dana').user(2, 'foreigner');
    await incidents.add(
      admin.scope,
      anImIncident('triggered', clock.now(), { publicId: INCIDENT, organizationId: ORG, title: 'Checkout down', teamId: 'team-a' }),
    );
  });

  const responderEntries = async () =>
    (await incidents.timeline(admin.scope, (await incidents.findByRef(admin.scope, INCIDENT))!))
      .filter((e) => e.kind === 'responderAdded')
      .map((e) => ({ by: e.actorUserId, ...e.details }));

  it('records the responder on the timeline; a member may add one without paging', async () => {
    await add.execute(member, INCIDENT, { userId: 'dana', notify: false });
    expect(await responderEntries()).to.deep.equal([{ by: 'member-1', userId: 'dana', notified: false }]);
    expect(deliveries.rows).to.have.length(0);
  });

  it('pages the responder through the delivery ledger when a team admin asks, once per request', async () => {
    await add.execute(teamAdmin, INCIDENT, { userId: 'dana', notify: true });
    await add.execute(admin, INCIDENT, { userId: 'dana', notify: true });
    expect(deliveries.rows.map((r) => r.message)).to.have.length(2);
    expect(deliveries.rows[0]!.message).to.deep.include({
      organizationId: ORG,
      incidentId: INCIDENT,
      event: 'im.incident.responderAdded',
      recipient: { type: 'email', address: 'dana@people.example' },
      subject: '[Responder] Checkout down',
    });
    expect(new Set(deliveries.rows.map((r) => r.message.dedupKey)).size).to.equal(2);
    expect(await responderEntries()).to.have.length(2);
  });

  it('pages every enabled contact method of the responder, each once per request', async () => {
    const t = clock.now();
    await methods.put({
      id: 'account-email',
      organizationId: ORG,
      userId: 'dana',
      type: 'email',
      address: '',
      enabled: false,
      secret: null,
      createdAt: t,
      updatedAt: t,
    });
    await methods.put({
      id: 's1',
      organizationId: ORG,
      userId: 'dana',
      type: 'sms',
      address: '+14155550100',
      enabled: true,
      secret: null,
      createdAt: t,
      updatedAt: t,
    });
    await methods.put({
      id: 'w1',
      organizationId: ORG,
      userId: 'dana',
      type: 'webhook',
      address: 'https://hooks.example.com/d',
      enabled: true,
      secret: 'whsec_d',
      createdAt: t,
      updatedAt: t,
    });
    await add.execute(admin, INCIDENT, { userId: 'dana', notify: true });
    expect(deliveries.rows.map((r) => r.message.recipient)).to.deep.equal([
      { type: 'sms', phone: '+14155550100' },
      { type: 'webhook', url: 'https://hooks.example.com/d', secret: 'whsec_d' },
    ]);
    expect(new Set(deliveries.rows.map((r) => r.message.dedupKey)).size).to.equal(2);
  });

  it('refuses notify by a plain member (imTeamAdminRequired) and records nothing', async () => {
    expect(await codeOf(add.execute(member, INCIDENT, { userId: 'dana', notify: true }))).to.equal('imTeamAdminRequired');
    expect(await responderEntries()).to.deep.equal([]);
    expect(deliveries.rows).to.have.length(0);
  });

  it('refuses a user who is not an IM user of the organization (imUserNotEligible)', async () => {
    expect(await codeOf(add.execute(admin, INCIDENT, { userId: 'foreigner', notify: false }))).to.equal('imUserNotEligible');
    expect(await codeOf(add.execute(admin, INCIDENT, { userId: 'nobody', notify: true }))).to.equal('imUserNotEligible');
    expect(deliveries.rows).to.have.length(0);
  });

  it('refuses non-members, other organizations and closed incidents', async () => {
    expect(await codeOf(add.execute(outsider, INCIDENT, { userId: 'dana', notify: false }))).to.equal('imTeamMembershipRequired');
    expect(await codeOf(add.execute(stranger, INCIDENT, { userId: 'dana', notify: false }))).to.equal('imIncidentNotFound');
    const incident = (await incidents.findByRef(admin.scope, INCIDENT))!;
    incident.resolve(null, clock.now());
    await incidents.save(admin.scope, incident);
    expect(await codeOf(add.execute(admin, INCIDENT, { userId: 'dana', notify: false }))).to.equal('imIncidentAlreadyClosed');
  });
});
