import { expect } from 'chai';
import { Schedule } from '../../../../src/domain/on-call/schedule';
import { Team } from '../../../../src/domain/on-call/teams';
import type { RunDueEscalations } from '../../../../src/application/on-call/run-due-escalations';
import { anOnCallWorld, type OnCallWorld } from '../../../support/builders/on-call';

const ORG = 7;
const MINUTE = 60_000;

describe('RunDueEscalations (escalating unacknowledged incidents)', () => {
  let world: OnCallWorld;
  let { clock, ledger, deliveries } = {} as OnCallWorld;
  let run: RunDueEscalations;
  const paged = () => world.paged();

  beforeEach(async () => {
    world = anOnCallWorld({ organizationId: ORG });
    ({ clock, ledger, deliveries, job: run } = world);
    const now = clock.now();
    await world.teams.add(
      Team.create(
        { id: 'team-1', organizationId: ORG, name: 'SRE', description: null, members: [{ userId: 'cat', imRole: 'member' }] },
        now,
      ),
    );
    await world.schedules.add(
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
    await world.policy([
      { delayMinutes: 5, targets: [{ type: 'user', id: 'ann' }] },
      { delayMinutes: 10, targets: [{ type: 'schedule', id: 'sched-1' }] },
    ]);
    world.contact(['ann', 'Ann'], ['bob', 'Bob'], ['cat', 'Cat']).open('inc-1', 'Checkout down');
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
