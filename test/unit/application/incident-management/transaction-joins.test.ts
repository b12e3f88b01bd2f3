import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { anIncidentManagementWorld } from '../../../support/builders/incident-management';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';

/** Incident management's use cases hand the runner's transaction to the incident writes (docs/architecture.md). */
describe('IM incident use cases: writes join the transaction they run in', () => {
  const admin = anActor().build();

  function aRecordedWorld() {
    const transactions = recordedTransactions();
    const world = anIncidentManagementWorld({ tx: transactions });
    world.teams.team(1, 'team-a');
    const declare = async () => (await world.declare(admin)).publicId;
    /** Every write since the last call was handed the transaction the runner opened last. */
    const joinedLast = (count: number) => {
      const writes = world.incidents.writes.splice(0);
      expect(writes).to.have.length(count);
      expect(writes.every(({ tx }) => tx === transactions.handed.at(-1))).to.equal(true);
    };
    return { ...world, transactions, declare, joinedLast };
  }

  it('declaring, acknowledging, changing the status, snoozing and resolving write in their transaction', async () => {
    const { acknowledge, changeStatus, snooze, resolve, clock, transactions, declare, joinedLast } = aRecordedWorld();
    const ref = await declare();
    joinedLast(1);
    await acknowledge.execute(admin, ref);
    joinedLast(1);
    await changeStatus.execute(admin, ref, 'triggered');
    joinedLast(1);
    await snooze.execute(admin, ref, new Date(clock.now().getTime() + 3_600_000));
    joinedLast(1);
    await resolve.execute(admin, ref);
    joinedLast(1);
    expect(transactions.handed).to.have.length(5);
  });

  it('a bulk action and a merge save every incident in their one transaction', async () => {
    const { incidents, bulk, merge, declare, joinedLast } = aRecordedWorld();
    const refs = [await declare(), await declare(), await declare()];
    incidents.writes.length = 0;
    await bulk.execute(admin, 'acknowledge', refs);
    joinedLast(3);
    await merge.execute(admin, refs[0]!, [refs[1]!, refs[2]!]);
    joinedLast(3);
  });

  it('adding a responder saves the incident in its transaction', async () => {
    const { incidents, responders, addResponder, declare, joinedLast } = aRecordedWorld();
    const ref = await declare();
    incidents.writes.length = 0;
    responders.user(1, 'dana', 'Dana');
    await addResponder.execute(admin, ref, {
      userId: 'dana',
      notify: false,
    });
    joinedLast(1);
  });

  it('paging an added responder enqueues the page in the transaction that saves the incident', async () => {
    const { incidents, responders, deliveries, addResponder, transactions, declare, joinedLast } = aRecordedWorld();
    const ref = await declare();
    incidents.writes.length = 0;
    responders.user(1, 'dana', 'Dana');
    await addResponder.execute(admin, ref, {
      userId: 'dana',
      notify: true,
    });
    joinedLast(1);
    expect(deliveries.rows).to.have.length.greaterThan(0);
    expect(deliveries.enqueuedIn).to.deep.equal([transactions.handed.at(-1)]);
  });
});
