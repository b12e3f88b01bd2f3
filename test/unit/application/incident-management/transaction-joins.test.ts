import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';
import { recordedTransactions, sequentialIds } from '../../../support/fakes/shared-fakes';
import { FakeDirectDeliveries } from '../../../support/fakes/notifications-fakes';
import {
  FakeEscalationPolicies,
  FakeImCustomers,
  FakeImIncidents,
  FakeImResponders,
  FakeImTeams,
} from '../../../support/fakes/incident-management-fakes';
import { AcknowledgeImIncident } from '../../../../src/application/incident-management/acknowledge-im-incident';
import { AddImIncidentResponder } from '../../../../src/application/incident-management/add-im-incident-responder';
import { BulkImIncidentAction } from '../../../../src/application/incident-management/bulk-im-incident-action';
import { ChangeImIncidentStatus } from '../../../../src/application/incident-management/change-im-incident-status';
import { CreateImIncident } from '../../../../src/application/incident-management/create-im-incident';
import { MergeImIncidents } from '../../../../src/application/incident-management/merge-im-incidents';
import { ResolveImIncident } from '../../../../src/application/incident-management/resolve-im-incident';
import { SnoozeImIncident } from '../../../../src/application/incident-management/snooze-im-incident';

/** Incident management's use cases hand the runner's transaction to the incident writes (docs/architecture.md). */
describe('IM incident use cases: writes join the transaction they run in', () => {
  const admin = anActor().build();

  function setup() {
    const incidents = new FakeImIncidents();
    const teams = new FakeImTeams().team(1, 'team-a');
    const clock = new ManualClock();
    const transactions = recordedTransactions();
    const create = new CreateImIncident(
      incidents,
      teams,
      new FakeEscalationPolicies(),
      new FakeImCustomers(),
      transactions,
      sequentialIds(),
      clock,
    );
    const declare = async () => (await create.execute(admin, { title: 'Down' })).publicId;
    /** Every write since the last call was handed the transaction the runner opened last. */
    const joinedLast = (count: number) => {
      const writes = incidents.writes.splice(0);
      expect(writes).to.have.length(count);
      expect(writes.every(({ tx }) => tx === transactions.handed.at(-1))).to.equal(true);
    };
    return { incidents, teams, clock, transactions, create, declare, joinedLast };
  }

  it('declaring, acknowledging, changing the status, snoozing and resolving write in their transaction', async () => {
    const { incidents, teams, clock, transactions, declare, joinedLast } = setup();
    const ref = await declare();
    joinedLast(1);
    await new AcknowledgeImIncident(incidents, transactions, clock).execute(admin, ref);
    joinedLast(1);
    await new ChangeImIncidentStatus(incidents, teams, transactions, clock).execute(admin, ref, 'triggered');
    joinedLast(1);
    await new SnoozeImIncident(incidents, teams, transactions, clock).execute(admin, ref, new Date(clock.now().getTime() + 3_600_000));
    joinedLast(1);
    await new ResolveImIncident(incidents, teams, transactions, clock).execute(admin, ref);
    joinedLast(1);
    expect(transactions.handed).to.have.length(5);
  });

  it('a bulk action and a merge save every incident in their one transaction', async () => {
    const { incidents, teams, clock, transactions, declare, joinedLast } = setup();
    const refs = [await declare(), await declare(), await declare()];
    incidents.writes.length = 0;
    await new BulkImIncidentAction(incidents, teams, transactions, clock).execute(admin, 'acknowledge', refs);
    joinedLast(3);
    await new MergeImIncidents(incidents, teams, transactions, clock).execute(admin, refs[0]!, [refs[1]!, refs[2]!]);
    joinedLast(3);
  });

  it('adding a responder saves the incident in its transaction', async () => {
    const { incidents, teams, clock, transactions, declare, joinedLast } = setup();
    const ref = await declare();
    incidents.writes.length = 0;
    const responders = new FakeImResponders().user(1, 'dana', 'Dana');
    await new AddImIncidentResponder(incidents, teams, responders, new FakeDirectDeliveries(), transactions, clock).execute(admin, ref, {
      userId: 'dana',
      notify: false,
    });
    joinedLast(1);
  });

  it('paging an added responder enqueues the page in the transaction that saves the incident', async () => {
    const { incidents, teams, clock, transactions, declare, joinedLast } = setup();
    const ref = await declare();
    incidents.writes.length = 0;
    const responders = new FakeImResponders().user(1, 'dana', 'Dana');
    const deliveries = new FakeDirectDeliveries();
    await new AddImIncidentResponder(incidents, teams, responders, deliveries, transactions, clock).execute(admin, ref, {
      userId: 'dana',
      notify: true,
    });
    joinedLast(1);
    expect(deliveries.rows).to.have.length.greaterThan(0);
    expect(deliveries.enqueuedIn).to.deep.equal([transactions.handed.at(-1)]);
  });
});
