import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { codeOf, expectAppErrorAsync } from '../../../support/expect-app-error';
import { anIncidentManagementWorld, type IncidentManagementWorld } from '../../../support/builders/incident-management';
import type { FakeImIncidents } from '../../../support/fakes/incident-management-fakes';

describe('IM incident use cases', () => {
  let world: IncidentManagementWorld;
  let incidents: FakeImIncidents;
  const admin = anActor().build();
  const responder = anActor().with({ role: 'responder', userId: 'responder-1' }).build();
  const stranger = anActor().inOrganization(2).build();

  beforeEach(() => {
    world = anIncidentManagementWorld();
    world.teams.team(1, 'team-a', ['member-1']).team(2, 'team-b');
    world.policies.policies.set('policy-a', 1).set('policy-b', 2);
    world.customers.customers.set(10, 1).set(20, 2);
    incidents = world.incidents;
  });

  const resolveUseCase = () => world.resolve;
  const declare = (input: Record<string, unknown> = {}) => world.declare(admin, input);

  describe('create', () => {
    it('stores the references of the organization', async () => {
      const incident = await declare({ teamId: 'team-a', escalationPolicyId: 'policy-a', customerId: 10 });
      expect(incident).to.include({ teamId: 'team-a', escalationPolicyId: 'policy-a', customerId: 10, status: 'triggered' });
      expect(incidents.rows.size).to.equal(1);
    });
    it("refuses another organization's team (invalidTeamId)", async () => {
      expect(await codeOf(declare({ teamId: 'team-b' }))).to.equal('invalidTeamId');
    });
    it("refuses another organization's customer (invalidCustomerId)", async () => {
      expect(await codeOf(declare({ customerId: 20 }))).to.equal('invalidCustomerId');
    });
    it("refuses another organization's policy (imRoutingInvalidPolicyId)", async () => {
      expect(await codeOf(declare({ escalationPolicyId: 'policy-b' }))).to.equal('imRoutingInvalidPolicyId');
      expect(incidents.rows.size).to.equal(0);
    });
  });

  it("answers imIncidentNotFound for another organization's incident", async () => {
    const incident = await declare();
    expect(await codeOf(world.get.execute(stranger, incident.publicId))).to.equal('imIncidentNotFound');
    expect(await codeOf(resolveUseCase().execute(stranger, incident.publicId))).to.equal('imIncidentNotFound');
  });

  it('turns a lost race into imIncidentStatusConflict, and leaves the stored incident as it was', async () => {
    const incident = await declare();
    incidents.concurrentWriteOnNextSave = true;
    expect(await codeOf(resolveUseCase().execute(admin, incident.publicId))).to.equal('imIncidentStatusConflict');
    expect([...incidents.rows.values()][0]!.status).to.equal('triggered');
    expect((await resolveUseCase().execute(admin, incident.publicId)).status).to.equal('resolved');
  });

  describe('team membership', () => {
    it("lets a member of the incident's team resolve it", async () => {
      const incident = await declare({ teamId: 'team-a' });
      const member = anActor().with({ role: 'responder', userId: 'member-1' }).build();
      expect((await resolveUseCase().execute(member, incident.publicId)).status).to.equal('resolved');
    });
    it('refuses a non-member (imTeamMembershipRequired), but lets them acknowledge', async () => {
      const incident = await declare({ teamId: 'team-a' });
      expect(await codeOf(resolveUseCase().execute(responder, incident.publicId))).to.equal('imTeamMembershipRequired');
      const acked = await world.acknowledge.execute(responder, incident.publicId);
      expect(acked.status).to.equal('acknowledged');
    });
    it("lets organization admins and platform admins act on any team's incident", async () => {
      const incident = await declare({ teamId: 'team-a' });
      const platformAdmin = anActor().with({ role: 'editor' }).platformAdmin().build();
      expect((await resolveUseCase().execute(platformAdmin, incident.publicId)).status).to.equal('resolved');
    });
    it('refuses a whole bulk resolve, listing every denied incident, and changes none', async () => {
      const free = await declare();
      const teamOne = await declare({ teamId: 'team-a' });
      const teamTwo = await declare({ teamId: 'team-a' });
      const bulk = world.bulk;
      await expectAppErrorAsync(
        bulk.execute(responder, 'resolve', [free.publicId, teamOne.publicId, teamTwo.publicId]),
        'imTeamMembershipRequired',
        { deniedIncidentIds: [teamOne.publicId, teamTwo.publicId] },
      );
      expect([...incidents.rows.values()].map((i) => i.status)).to.deep.equal(['triggered', 'triggered', 'triggered']);
      const acked = await bulk.execute(responder, 'acknowledge', [free.publicId, teamOne.publicId]);
      expect(acked.map((i) => i.status)).to.deep.equal(['acknowledged', 'acknowledged']);
    });
    it("refuses a merge touching another team's incident", async () => {
      const target = await declare();
      const source = await declare({ teamId: 'team-a' });
      await expectAppErrorAsync(world.merge.execute(responder, target.publicId, [source.publicId]), 'imTeamMembershipRequired', {
        deniedIncidentIds: [source.publicId],
      });
    });
  });
});
