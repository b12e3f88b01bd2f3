import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { aStatusPagesWorld } from '../../../support/builders/status-pages';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';

const ORG = 1;

/** The page "Acme" over monitor m-7 ("Shop"), its use cases on a recorded runner. */
async function aRecordedPageWorld() {
  const tx = recordedTransactions();
  const world = aStatusPagesWorld({ tx }).monitor(7, 'Shop');
  return { ...world, tx, page: await world.aPage(), create: world.createIncident, post: world.postUpdate };
}

/** Status-page use cases hand the runner's transaction to their writes and the outbox rows they lock (docs/architecture.md). */
describe('status-page use cases: writes join the transaction they run in', () => {
  it('a visitor subscribing and an editor adding a subscriber insert it in the transaction each runs in', async () => {
    const s = await aRecordedPageWorld();
    await s.subscribe.execute(
      { slug: 'acme' },
      { ip: '198.51.100.7', accessToken: undefined },
      { email: 'ada@example.com', componentIds: [] },
    );
    await s.editors.add(anActor().build(), {
      id: s.page.publicId,
      subscriber: { channel: 'email', email: 'ops@acme.example', componentIds: [] },
    });
    expect(s.tx.handed).to.have.length(2);
    expect(s.subscribers.joined).to.deep.equal([
      ['add', s.tx.handed[0]],
      ['add', s.tx.handed[1]],
    ]);
    // The confirmation and the editor's notice are enqueued with the subscriber they are about.
    expect(s.deliveries.enqueuedIn).to.deep.equal([s.tx.handed[0], s.tx.handed[1]]);
  });

  it('declaring a page incident inserts it, and posting an update saves it, in the transaction each runs in', async () => {
    const s = await aRecordedPageWorld();
    const { incident } = await s.create.execute(anActor().build(), {
      id: '1',
      title: 'Slow checkout',
      status: 'investigating',
      message: 'Looking into it',
      componentIds: ['m-7'],
    });
    await s.post.execute(anActor().build(), { id: '1', incidentId: incident.publicId, status: 'resolved', message: 'Fixed' });
    expect(s.tx.handed).to.have.length(2);
    expect(s.incidents.joined).to.deep.equal([
      ['add', s.tx.handed[0]],
      ['save', s.tx.handed[1]],
    ]);
  });

  it('announcing locks the outbox rows and marks them told in the one transaction', async () => {
    const s = await aRecordedPageWorld();
    s.feed.events.push({
      id: 1,
      organizationId: ORG,
      kind: 'incidentOpened',
      monitorId: 7,
      subjectId: 'inc-1',
      summary: 'Shop is down',
      occurredAt: new Date('2026-06-01T12:00:00Z'),
      occurrence: null,
    });
    expect(await s.announce.execute()).to.deep.include({ events: 1 });
    const [handed] = s.tx.handed;
    expect(s.feed.joined).to.deep.equal([
      ['next', handed],
      ['markTold', handed],
    ]);
  });
});
