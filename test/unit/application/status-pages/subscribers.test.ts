import { expect } from 'chai';
import { AnnounceToSubscribers } from '../../../../src/application/status-pages/announce-to-subscribers';
import { CreateStatusPage } from '../../../../src/application/status-pages/create-status-page';
import { SubscribeToStatusPage } from '../../../../src/application/status-pages/subscribe-to-status-page';
import { ManageSubscription } from '../../../../src/application/status-pages/manage-subscription';
import { subscriberIdOf } from '../../../../src/application/status-pages/page-subscribers';
import { MaintenanceWindow } from '../../../../src/domain/maintenance/maintenance-window';
import { Subscriber } from '../../../../src/domain/status-pages/subscriber';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';
import { codeOf } from '../../../support/expect-app-error';
import { FakeRateLimiter, immediateTransactions, sequentialIds } from '../../../support/fakes/shared-fakes';
import { FakeMaintenanceWindows } from '../../../support/fakes/maintenance-fakes';
import { FakeDirectDeliveries } from '../../../support/fakes/notifications-fakes';
import {
  fakeAccessTokens,
  FakeComponentCatalog,
  FakePageEventFeed,
  FakeStatusPages,
  FakeSubscribers,
} from '../../../support/fakes/status-pages-fakes';

const ORG = 1;
const links = { publicBaseUrl: 'https://status.example' };
const hasher = { hash: async (p: string) => `hashed:${p}`, verify: async (h: string, p: string) => h === `hashed:${p}` };
const visitor = { ip: '198.51.100.7', accessToken: undefined };

async function setup() {
  const clock = new ManualClock('2026-06-01T12:00:00Z');
  const pages = new FakeStatusPages();
  const catalog = new FakeComponentCatalog()
    .add(ORG, { type: 'monitor', id: 7, publicId: 'm-7', customerId: 3, name: 'Shop' })
    .add(ORG, { type: 'monitor', id: 8, publicId: 'm-8', customerId: 3, name: 'Blog' });
  const subscribers = new FakeSubscribers();
  const deliveries = new FakeDirectDeliveries();
  const feed = new FakePageEventFeed();
  const windows = new FakeMaintenanceWindows();
  const ids = sequentialIds();
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
    groups: [
      {
        name: 'All',
        components: [
          { type: 'monitor', id: 'm-7' },
          { type: 'monitor', id: 'm-8' },
        ],
      },
    ],
  });
  const subscribe = new SubscribeToStatusPage(
    pages,
    subscribers,
    catalog,
    fakeAccessTokens,
    deliveries,
    immediateTransactions,
    ids,
    links,
    clock,
    new FakeRateLimiter(),
  );
  const manage = new ManageSubscription(pages, subscribers, clock, immediateTransactions);
  const announce = new AnnounceToSubscribers(feed, pages, catalog, windows, subscribers, deliveries, immediateTransactions, links, clock);
  return { clock, page, pages, subscribers, deliveries, feed, windows, subscribe, manage, announce };
}

describe('Status page subscribers (use cases)', () => {
  it('sends one confirmation per new e-mail subscriber and tells nothing before it is followed', async () => {
    const { subscribe, deliveries, feed, announce, subscribers, manage } = await setup();
    await subscribe.execute({ slug: 'acme' }, visitor, { email: 'Ada@Example.com', componentIds: [] });
    await subscribe.execute({ slug: 'acme' }, visitor, { email: 'ada@example.com', componentIds: [] });
    expect(deliveries.rows.map((r) => r.message.event)).to.deep.equal(['statusPage.subscriptionConfirmation']);
    expect(deliveries.rows[0]!.message.text).to.match(/https:\/\/status\.example\/status\/acme\/confirm\?token=[0-9a-f]{64}/);

    feed.events.push({
      id: 1,
      organizationId: ORG,
      kind: 'incidentOpened',
      monitorId: 7,
      subjectId: 'inc-1',
      summary: 'Shop is down',
      occurredAt: new Date(),
      occurrence: null,
    });
    await announce.execute();
    expect(deliveries.rows).to.have.length(1);

    const token = [...subscribers.rows.values()][0]!.token;
    await manage.confirm({ slug: 'acme' }, token);
    feed.events.push({
      id: 2,
      organizationId: ORG,
      kind: 'incidentResolved',
      monitorId: 7,
      subjectId: 'inc-1',
      summary: 'Shop is up',
      occurredAt: new Date(),
      occurrence: null,
    });
    expect(await announce.execute()).to.deep.equal({ events: 1, messages: 1 });
    expect(await announce.execute(), 'told once').to.deep.equal({ events: 0, messages: 0 });
    const told = deliveries.rows[1]!.message;
    expect(told).to.deep.include({
      event: 'statusPage.incidentResolved',
      subject: '[Acme] Resolved: Shop is up',
      recipient: { type: 'email', address: 'ada@example.com' },
    });
    expect(told.headers).to.deep.equal({
      'List-Unsubscribe': `<https://status.example/status/acme/unsubscribe?token=${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    await manage.unsubscribe({ slug: 'acme' }, token);
    expect(subscribers.rows.size).to.equal(0);
    expect(await codeOf(manage.unsubscribe({ slug: 'acme' }, token))).to.equal('subscriberNotFound');
  });

  it('tells of announced maintenance the subscribers following a covered component only', async () => {
    const { page, subscribers, deliveries, feed, windows, announce, clock } = await setup();
    const follow = async (address: string, componentKeys: string[]) => {
      const s = Subscriber.email({ pageId: page.id, organizationId: ORG, address, componentKeys, token: `t-${address}` }, clock.now());
      s.confirm(clock.now());
      await subscribers.add(s);
    };
    await follow('shop@example.com', ['monitor:7']);
    await follow('blog@example.com', ['monitor:8']);
    await follow('all@example.com', []);
    const window = await windows.add(
      MaintenanceWindow.create(
        {
          publicId: 'w-1',
          organizationId: ORG,
          customerId: null,
          title: 'Shop upgrade',
          description: null,
          startTime: new Date('2026-06-02T02:00:00Z'),
          endTime: new Date('2026-06-02T03:00:00Z'),
          timezone: 'UTC',
          rrule: null,
          targets: [{ type: 'monitor', id: 7 }],
          suppressAlerts: true,
          excludeFromUptime: false,
        },
        clock.now(),
      ),
    );
    feed.events.push({
      id: 5,
      organizationId: ORG,
      kind: 'maintenance.scheduled',
      monitorId: null,
      subjectId: window.publicId,
      summary: 'Maintenance scheduled: Shop upgrade',
      occurredAt: clock.now(),
      occurrence: { start: window.startTime, end: window.endTime },
    });
    await announce.execute();
    expect(deliveries.rows.map((r) => (r.message.recipient as { address: string }).address).sort()).to.deep.equal([
      'all@example.com',
      'shop@example.com',
    ]);
    expect(deliveries.rows[0]!.message.subject).to.equal('[Acme] Maintenance scheduled: Shop upgrade');
    expect(deliveries.rows[0]!.message.text).to.include('2026-06-02T02:00:00.000Z – 2026-06-02T03:00:00.000Z');
  });

  it('refuses to subscribe to a private page the visitor cannot read', async () => {
    const { subscribe, page, pages, clock } = await setup();
    page.change({ ipAllowlist: ['203.0.113.0/24'] }, clock.now());
    await pages.save(page);
    expect(await codeOf(subscribe.execute({ slug: 'acme' }, visitor, { email: 'x@example.com', componentIds: [] }))).to.equal('forbidden');
  });

  it('lets one visitor address start only 10 subscriptions per page and hour', async () => {
    const { subscribe, deliveries } = await setup();
    for (let i = 0; i < 10; i += 1) await subscribe.execute({ slug: 'acme' }, visitor, { email: `a${i}@example.com`, componentIds: [] });
    expect(await codeOf(subscribe.execute({ slug: 'acme' }, visitor, { email: 'a10@example.com', componentIds: [] }))).to.equal(
      'rateLimited',
    );
    expect(deliveries.rows).to.have.length(10);
    await subscribe.execute({ slug: 'acme' }, { ...visitor, ip: '198.51.100.8' }, { email: 'a10@example.com', componentIds: [] });
    expect(deliveries.rows).to.have.length(11);
  });

  it('reads a subscriber id as a positive integer only', () => {
    expect(subscriberIdOf('42')).to.equal(42);
    for (const bad of ['0', '-1', '1.5', 'abc', '99999999999', ''])
      expect(
        codeOf(() => subscriberIdOf(bad)),
        bad,
      ).to.equal('invalidSubscriberId');
  });
});
