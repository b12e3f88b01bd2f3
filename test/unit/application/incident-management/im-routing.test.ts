import { FakeTransaction, immediateTransactions } from '../../../support/fakes/shared-fakes';
import { expect } from 'chai';
import { ManualClock } from '../../../support/manual-clock';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import { anActor } from '../../../support/builders';
import { sequentialIds } from '../../../support/fakes/shared-fakes';
import {
  FakeEscalationPolicies,
  FakeImCustomers,
  FakeImIncidents,
  FakeImMonitorOrigins,
  FakeImRoutingSettings,
  FakeImTeams,
} from '../../../support/fakes/incident-management-fakes';
import { Incident } from '../../../../src/domain/incidents/incident';
import { RouteMonitorIncident } from '../../../../src/application/incident-management/route-monitor-incident';
import {
  GetMonitorImRouting,
  SetCustomerImRouting,
  SetMonitorImRouting,
} from '../../../../src/application/incident-management/manage-im-routing';

const ORG = 1;
const scope = { organizationId: ORG, customerId: null };
const t0 = new Date('2026-12-27T10:00:00Z');

const anEngineIncident = (publicId = '11111111-1111-4111-8111-111111111111', monitorId = 7) => {
  const incident = new Incident({
    publicId,
    organizationId: ORG,
    customerId: 3,
    monitorId,
    origin: 'automatic',
    title: 'Shop is down',
    description: null,
    causeReasonCode: 'httpStatus',
    causeMessage: 'HTTP 503',
    startedAt: t0,
    createdByUserId: null,
    now: t0,
  });
  incident.id = 42;
  return incident;
};

describe('routing check-engine incidents into IM', () => {
  let settings: FakeImRoutingSettings;
  let incidents: FakeImIncidents;
  let clock: ManualClock;
  let route: RouteMonitorIncident;
  let monitor: { publicId: string; monitorId: number; name: string };

  beforeEach(() => {
    settings = new FakeImRoutingSettings();
    incidents = new FakeImIncidents();
    clock = new ManualClock(t0);
    route = new RouteMonitorIncident(settings, incidents, new FakeImMonitorOrigins(incidents), sequentialIds(), clock);
    const m = settings.aMonitor(ORG, 7, 3);
    monitor = { publicId: m.publicId, monitorId: 7, name: 'Shop' };
    settings.imEnabled.add(ORG);
  });
  const imIncidents = () => [...incidents.rows.values()];

  it('opens an IM incident for a monitor of a routed customer, with its team, policy, origin and dedup key', async () => {
    await settings.setCustomer(ORG, 3, { enabled: true, teamId: 'ops', escalationPolicyId: 'p1' });
    const engine = anEngineIncident();
    await route.opened([{ incident: engine, monitor: monitor }], new FakeTransaction());
    const [im] = imIncidents();
    expect(im).to.include({
      title: 'Shop is down',
      status: 'triggered',
      teamId: 'ops',
      escalationPolicyId: 'p1',
      customerId: 3,
      source: 'monitor',
      dedupKey: 'monitor-storm:3:ops:p1',
    });
    expect(im!.monitorOrigin).to.deep.equal({ monitorId: monitor.publicId, incidentId: engine.publicId });
    expect(incidents.timelines.get(im!.id)![0]!.details).to.include({
      origin: 'monitor',
      incidentId: engine.publicId,
      monitorName: 'Shop',
    });
  });

  it('opens nothing when routing is off, not set, overridden off, or IM is switched off for the organization', async () => {
    await route.opened([{ incident: anEngineIncident(), monitor: monitor }], new FakeTransaction());
    await settings.setCustomer(ORG, 3, { enabled: true, teamId: null, escalationPolicyId: 'p1' });
    await settings.setMonitor(ORG, 7, { enabled: false, teamId: null, escalationPolicyId: null });
    await route.opened([{ incident: anEngineIncident(), monitor: monitor }], new FakeTransaction());
    await settings.setMonitor(ORG, 7, null);
    settings.imEnabled.delete(ORG);
    await route.opened([{ incident: anEngineIncident(), monitor: monitor }], new FakeTransaction());
    expect(imIncidents()).to.deep.equal([]);
  });

  it("uses the monitor's own team and policy when it overrides a customer that is off", async () => {
    await settings.setCustomer(ORG, 3, { enabled: false, teamId: null, escalationPolicyId: null });
    await settings.setMonitor(ORG, 7, { enabled: true, teamId: 'db', escalationPolicyId: 'p2' });
    await route.opened([{ incident: anEngineIncident(), monitor: monitor }], new FakeTransaction());
    expect(imIncidents().map((i) => [i.teamId, i.escalationPolicyId])).to.deep.equal([['db', 'p2']]);
  });

  it('reporting the same engine incident twice adds an occurrence to the one IM incident', async () => {
    await settings.setCustomer(ORG, 3, { enabled: true, teamId: null, escalationPolicyId: 'p1' });
    const engine = anEngineIncident();
    await route.opened([{ incident: engine, monitor: monitor }], new FakeTransaction());
    await route.opened([{ incident: engine, monitor: monitor }], new FakeTransaction());
    expect(imIncidents()).to.have.length(1);
    expect(imIncidents()[0]!.occurrenceCount).to.equal(2);
  });

  it('a new engine incident of the same monitor after the first resolved opens a new IM incident', async () => {
    await settings.setCustomer(ORG, 3, { enabled: true, teamId: null, escalationPolicyId: 'p1' });
    const first = anEngineIncident('11111111-1111-4111-8111-111111111111');
    await route.opened([{ incident: first, monitor: monitor }], new FakeTransaction());
    await route.resolved([{ incident: first, monitor: monitor }], new FakeTransaction());
    await route.opened([{ incident: anEngineIncident('22222222-2222-4222-8222-222222222222'), monitor: monitor }], new FakeTransaction());
    expect(imIncidents().map((i) => i.status)).to.deep.equal(['resolved', 'triggered']);
  });

  describe('a storm: many monitors of one customer down at once', () => {
    const other = { publicId: 'm-other', monitorId: 8, name: 'API' };
    const third = { publicId: 'm-third', monitorId: 9, name: 'Blog' };
    const a = anEngineIncident('11111111-1111-4111-8111-111111111111', 7);
    const b = anEngineIncident('22222222-2222-4222-8222-222222222222', 8);
    const c = anEngineIncident('33333333-3333-4333-8333-333333333333', 9);
    beforeEach(() => {
      settings.aMonitor(ORG, 8, 3, other.publicId);
      settings.aMonitor(ORG, 9, 3, third.publicId);
    });

    it('is one IM incident (one escalation, one page per responder), its occurrences naming each monitor', async () => {
      await settings.setCustomer(ORG, 3, { enabled: true, teamId: 'ops', escalationPolicyId: 'p1' });
      await route.opened([{ incident: a, monitor: monitor }], new FakeTransaction());
      clock.advance(5_000);
      await route.opened([{ incident: b, monitor: other }], new FakeTransaction());
      await route.opened([{ incident: c, monitor: third }], new FakeTransaction());
      const [im, ...rest] = imIncidents();
      expect(rest).to.deep.equal([]);
      expect(im!.occurrenceCount).to.equal(3);
      const occurrences = incidents.timelines
        .get(im!.id)!
        .filter((e) => e.kind === 'occurrence')
        .map((e) => e.details.monitorName);
      expect(occurrences).to.deep.equal(['API', 'Blog']);
    });

    it('resolves when the last of its monitors recovers, not before', async () => {
      await settings.setCustomer(ORG, 3, { enabled: true, teamId: null, escalationPolicyId: 'p1' });
      await route.opened([{ incident: a, monitor: monitor }], new FakeTransaction());
      await route.opened([{ incident: b, monitor: other }], new FakeTransaction());
      await route.resolved([{ incident: a, monitor: monitor }], new FakeTransaction());
      expect(imIncidents()[0]!.status).to.equal('triggered');
      await route.resolved([{ incident: b, monitor: other }], new FakeTransaction());
      expect(imIncidents()[0]!.status).to.equal('resolved');
    });

    it('a monitor of another route, or of another customer, is not part of it', async () => {
      await settings.setCustomer(ORG, 3, { enabled: true, teamId: null, escalationPolicyId: 'p1' });
      await settings.setMonitor(ORG, 8, { enabled: true, teamId: 'db', escalationPolicyId: 'p1' });
      settings.aMonitor(ORG, 9, 4, third.publicId);
      await settings.setCustomer(ORG, 4, { enabled: true, teamId: null, escalationPolicyId: 'p1' });
      await route.opened([{ incident: a, monitor: monitor }], new FakeTransaction());
      await route.opened([{ incident: b, monitor: other }], new FakeTransaction());
      const ofOtherCustomer = anEngineIncident('33333333-3333-4333-8333-333333333333', 9);
      ofOtherCustomer.customerId = 4;
      await route.opened([{ incident: ofOtherCustomer, monitor: third }], new FakeTransaction());
      expect(imIncidents()).to.have.length(3);
    });

    it('ends for grouping after a quiet gap: a failure long after opens its own IM incident, and pages again', async () => {
      await settings.setCustomer(ORG, 3, { enabled: true, teamId: null, escalationPolicyId: 'p1' });
      await route.opened([{ incident: a, monitor: monitor }], new FakeTransaction());
      clock.advance(31 * 60_000);
      await route.opened([{ incident: b, monitor: other }], new FakeTransaction());
      expect(imIncidents().map((i) => i.status)).to.deep.equal(['triggered', 'triggered']);
      await route.resolved([{ incident: b, monitor: other }], new FakeTransaction());
      expect(imIncidents().map((i) => i.status)).to.deep.equal(['triggered', 'resolved']);
    });

    it('a sweep resolves a storm whose last two recoveries raced (each saw the other still down)', async () => {
      await settings.setCustomer(ORG, 3, { enabled: true, teamId: null, escalationPolicyId: 'p1' });
      await route.opened([{ incident: a, monitor: monitor }], new FakeTransaction());
      await route.opened([{ incident: b, monitor: other }], new FakeTransaction());
      const [im] = imIncidents();
      for (const entry of incidents.origins.get(im!.id)!) entry.recoveredAt = t0; // both recoveries marked, neither resolved
      expect(await route.resolveAllRecovered(new FakeTransaction())).to.equal(1);
      expect(imIncidents()[0]!.status).to.equal('resolved');
      expect(await route.resolveAllRecovered(new FakeTransaction())).to.equal(0);
    });
  });

  it('resolves the open IM incident when the engine incident resolves, with a timeline entry; a repeat is harmless', async () => {
    await settings.setCustomer(ORG, 3, { enabled: true, teamId: null, escalationPolicyId: 'p1' });
    const engine = anEngineIncident();
    await route.opened([{ incident: engine, monitor: monitor }], new FakeTransaction());
    clock.advance(60_000);
    await route.resolved([{ incident: engine, monitor: monitor }], new FakeTransaction());
    await route.resolved([{ incident: engine, monitor: monitor }], new FakeTransaction());
    const [im] = imIncidents();
    expect(im).to.include({ status: 'resolved', resolvedByUserId: null });
    expect(im!.resolvedAt).to.deep.equal(new Date(t0.getTime() + 60_000));
    const resolvedEntries = incidents.timelines.get(im!.id)!.filter((e) => e.kind === 'resolved');
    expect(resolvedEntries.map((e) => e.details)).to.deep.equal([
      { origin: 'monitor', monitorId: monitor.publicId, incidentId: engine.publicId, reason: 'monitorRecovered' },
    ]);
  });

  it('reads the IM incident again when a person changed it at the same moment, then resolves it', async () => {
    await settings.setCustomer(ORG, 3, { enabled: true, teamId: null, escalationPolicyId: 'p1' });
    const engine = anEngineIncident();
    await route.opened([{ incident: engine, monitor: monitor }], new FakeTransaction());
    incidents.concurrentWriteOnNextSave = true;
    await route.resolved([{ incident: engine, monitor: monitor }], new FakeTransaction());
    expect(imIncidents()[0]!.status).to.equal('resolved');
  });

  it('leaves an IM incident a person already resolved as it is', async () => {
    await settings.setCustomer(ORG, 3, { enabled: true, teamId: null, escalationPolicyId: 'p1' });
    const engine = anEngineIncident();
    await route.opened([{ incident: engine, monitor: monitor }], new FakeTransaction());
    const [im] = imIncidents();
    const copy = await incidents.findByRef(scope, im!.publicId);
    copy!.resolve('someone', t0);
    await incidents.save(scope, copy!);
    await route.resolved([{ incident: engine, monitor: monitor }], new FakeTransaction());
    expect(imIncidents()[0]!.resolvedByUserId).to.equal('someone');
  });
});

describe('IM routing settings', () => {
  let settings: FakeImRoutingSettings;
  let teams: FakeImTeams;
  let policies: FakeEscalationPolicies;
  let customers: FakeImCustomers;
  const actor = anActor().build();

  beforeEach(() => {
    settings = new FakeImRoutingSettings();
    teams = new FakeImTeams();
    policies = new FakeEscalationPolicies();
    customers = new FakeImCustomers();
    customers.customers.set(3, ORG);
    customers.customers.set(4, 2);
    teams.team(ORG, 'ops');
    teams.team(2, 'theirs');
    policies.policies.set('p1', ORG);
    policies.policies.set('p-other', 2);
    settings.aMonitor(ORG, 7, 3);
    settings.aMonitor(2, 8, 4);
  });
  const deps = () => ({ teams, policies, customers });
  const setCustomer = () => new SetCustomerImRouting(settings, deps(), new ManualClock(t0), immediateTransactions);
  const setMonitor = () => new SetMonitorImRouting(settings, deps(), new ManualClock(t0), immediateTransactions);

  it("refuses another organization's team, policy, customer and monitor", async () => {
    await expectAppErrorAsync(setCustomer().execute(actor, '3', { enabled: true, teamId: 'theirs' }), 'invalidTeamId');
    await expectAppErrorAsync(
      setCustomer().execute(actor, '3', { enabled: true, escalationPolicyId: 'p-other' }),
      'imRoutingInvalidPolicyId',
    );
    await expectAppErrorAsync(setCustomer().execute(actor, '4', { enabled: true }), 'customerNotFound');
    await expectAppErrorAsync(setMonitor().execute(actor, '8', { enabled: true }), 'monitorNotFound');
    await expectAppErrorAsync(setMonitor().execute(actor, '7', { enabled: true, teamId: 'theirs' }), 'invalidTeamId');
    expect(settings.customers.size + settings.overrides.size).to.equal(0);
  });

  it('shows the override, the customer default and the effective route; null goes back to inheriting', async () => {
    await setCustomer().execute(actor, '3', { enabled: true, teamId: 'ops', escalationPolicyId: 'p1' });
    const overridden = await setMonitor().execute(actor, '7', { enabled: false });
    expect(overridden.override).to.deep.equal({ enabled: false, teamId: null, escalationPolicyId: null });
    expect(overridden.effective).to.equal(null);
    const inherited = await setMonitor().execute(actor, '7', null);
    expect(inherited.override).to.equal(null);
    expect(inherited.effective).to.deep.equal({ teamId: 'ops', escalationPolicyId: 'p1' });
    expect((await new GetMonitorImRouting(settings).execute(actor, '7')).customer).to.deep.equal({
      enabled: true,
      teamId: 'ops',
      escalationPolicyId: 'p1',
    });
  });
});
