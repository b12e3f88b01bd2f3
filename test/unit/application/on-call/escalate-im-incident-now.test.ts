import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { anEscalatingWorld, ON_CALL_INCIDENT as INCIDENT, type OnCallWorld } from '../../../support/builders/on-call';
import { codeOf } from '../../../support/expect-app-error';

const MINUTE = 60_000;

describe('EscalateImIncidentNow (page the next escalation level at once)', () => {
  let world: OnCallWorld;
  let { clock, incidents, ledger, deliveries, escalateNow, job } = {} as OnCallWorld;
  const admin = anActor().build();
  const outsider = anActor().with({ role: 'responder', userId: 'outsider' }).build();
  const stranger = anActor().inOrganization(2).build();
  const paged = () => world.paged();

  beforeEach(async () => {
    world = await anEscalatingWorld(admin);
    ({ clock, incidents, ledger, deliveries, escalateNow, job } = world);
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
