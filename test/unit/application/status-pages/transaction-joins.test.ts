import { expect } from 'chai';
import { AnnounceToSubscribers } from '../../../../src/application/status-pages/announce-to-subscribers';
import { CreatePageIncident } from '../../../../src/application/status-pages/create-page-incident';
import { CreateStatusPage } from '../../../../src/application/status-pages/create-status-page';
import { PageSubscribers } from '../../../../src/application/status-pages/page-subscribers';
import { PostPageIncidentUpdate } from '../../../../src/application/status-pages/post-page-incident-update';
import { SubscribeToStatusPage } from '../../../../src/application/status-pages/subscribe-to-status-page';
import { SubscriberNotices } from '../../../../src/application/status-pages/subscriber-notices';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';
import { FakeRateLimiter, recordedTransactions, sequentialIds, immediateTransactions } from '../../../support/fakes/shared-fakes';
import { FakeMaintenanceWindows } from '../../../support/fakes/maintenance-fakes';
import { FakeDirectDeliveries } from '../../../support/fakes/notifications-fakes';
import {
  fakeAccessTokens,
  FakeComponentCatalog,
  FakePageEventFeed,
  FakePageIncidents,
  FakeStatusPageReadings,
  FakeStatusPages,
  FakeSubscribers,
} from '../../../support/fakes/status-pages-fakes';

const ORG = 1;
const links = { publicBaseUrl: 'https://status.example' };
const hasher = { hash: async (p: string) => `hashed:${p}`, verify: async (h: string, p: string) => h === `hashed:${p}` };

async function setup() {
  const clock = new ManualClock('2026-06-01T12:00:00Z');
  const pages = new FakeStatusPages();
  const catalog = new FakeComponentCatalog().add(ORG, { type: 'monitor', id: 7, publicId: 'm-7', customerId: 3, name: 'Shop' });
  const subscribers = new FakeSubscribers();
  const deliveries = new FakeDirectDeliveries();
  const incidents = new FakePageIncidents();
  const feed = new FakePageEventFeed();
  const ids = sequentialIds();
  const tx = recordedTransactions();
  const page = await new CreateStatusPage(pages, catalog, hasher, ids, clock, immediateTransactions).execute(anActor().build(), {
    title: 'Acme',
    slug: 'acme',
    description: null,
    logo: null,
    brandColor: '#000000',
    showResponseTimes: false,
    footer: null,
    ipAllowlist: [],
    customerId: null,
    password: null,
    groups: [{ name: 'All', components: [{ type: 'monitor', id: 'm-7' }] }],
  });
  const notices = new SubscriberNotices(subscribers, deliveries, links, clock);
  return {
    page,
    tx,
    subscribers,
    deliveries,
    incidents,
    feed,
    subscribe: new SubscribeToStatusPage(
      pages,
      subscribers,
      catalog,
      fakeAccessTokens,
      deliveries,
      tx,
      ids,
      links,
      clock,
      new FakeRateLimiter(),
    ),
    editors: new PageSubscribers(pages, subscribers, catalog, deliveries, tx, ids, links, clock),
    create: new CreatePageIncident(pages, incidents, new FakeStatusPageReadings(), catalog, notices, tx, ids, clock),
    post: new PostPageIncidentUpdate(pages, incidents, catalog, notices, tx, clock),
    announce: new AnnounceToSubscribers(feed, pages, catalog, new FakeMaintenanceWindows(), subscribers, deliveries, tx, links, clock),
  };
}

/** Status-page use cases hand the runner's transaction to their writes and the outbox rows they lock (docs/architecture.md). */
describe('status-page use cases: writes join the transaction they run in', () => {
  it('a visitor subscribing and an editor adding a subscriber insert it in the transaction each runs in', async () => {
    const s = await setup();
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
    const s = await setup();
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
    const s = await setup();
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
