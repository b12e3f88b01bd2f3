import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';
import { codeOf, expectAppErrorAsync } from '../../../support/expect-app-error';
import { immediateTransactions, sequentialIds } from '../../../support/fakes/shared-fakes';
import { FakeEscalationPolicies, FakeImCustomers, FakeImIncidents, FakeImTeams } from '../../../support/fakes/incident-management-fakes';
import { CreateImIncident } from '../../../../src/application/incident-management/create-im-incident';
import { ResolveImIncident } from '../../../../src/application/incident-management/resolve-im-incident';
import { AcknowledgeImIncident } from '../../../../src/application/incident-management/acknowledge-im-incident';
import { BulkImIncidentAction } from '../../../../src/application/incident-management/bulk-im-incident-action';
import { MergeImIncidents } from '../../../../src/application/incident-management/merge-im-incidents';
import { GetImIncident } from '../../../../src/application/incident-management/get-im-incident';

describe('IM incident use cases', () => {
  let incidents: FakeImIncidents;
  let teams: FakeImTeams;
  let policies: FakeEscalationPolicies;
  let customers: FakeImCustomers;
  let clock: ManualClock;
  let ids: ReturnType<typeof sequentialIds>;
  const admin = anActor().build();
  const responder = anActor().with({ role: 'responder', userId: 'responder-1' }).build();
  const stranger = anActor().inOrganization(2).build();

  beforeEach(() => {
    incidents = new FakeImIncidents();
    teams = new FakeImTeams().team(1, 'team-a', ['member-1']).team(2, 'team-b');
    policies = new FakeEscalationPolicies();
    policies.policies.set('policy-a', 1).set('policy-b', 2);
    customers = new FakeImCustomers();
    customers.customers.set(10, 1).set(20, 2);
    clock = new ManualClock();
    ids = sequentialIds();
  });

  const createUseCase = () => new CreateImIncident(incidents, teams, policies, customers, immediateTransactions, ids, clock);
  const resolveUseCase = () => new ResolveImIncident(incidents, teams, immediateTransactions, clock);
  const declare = (input: Record<string, unknown> = {}) => createUseCase().execute(admin, { title: 'Down', ...input });

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
    expect(await codeOf(new GetImIncident(incidents).execute(stranger, incident.publicId))).to.equal('imIncidentNotFound');
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
      const acked = await new AcknowledgeImIncident(incidents, immediateTransactions, clock).execute(responder, incident.publicId);
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
      const bulk = new BulkImIncidentAction(incidents, teams, immediateTransactions, clock);
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
      await expectAppErrorAsync(
        new MergeImIncidents(incidents, teams, immediateTransactions, clock).execute(responder, target.publicId, [source.publicId]),
        'imTeamMembershipRequired',
        { deniedIncidentIds: [source.publicId] },
      );
    });
  });
});
