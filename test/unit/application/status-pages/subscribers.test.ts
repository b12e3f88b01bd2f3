import { expect } from 'chai';
import { subscriberIdOf } from '../../../../src/application/status-pages/page-subscribers';
import { MaintenanceWindow } from '../../../../src/domain/maintenance/maintenance-window';
import { Subscriber } from '../../../../src/domain/status-pages/subscriber';
import { aStatusPagesWorld, SHOP_AND_BLOG } from '../../../support/builders/status-pages';
import { codeOf } from '../../../support/expect-app-error';

const ORG = 1;
const visitor = { ip: '198.51.100.7', accessToken: undefined };

/** The page "Acme" over monitors m-7 ("Shop") and m-8 ("Blog"). */
async function aFollowedPageWorld() {
  const world = aStatusPagesWorld().monitor(7, 'Shop').monitor(8, 'Blog');
  return { ...world, page: await world.aPage('acme', { groups: SHOP_AND_BLOG }) };
}

describe('Status page subscribers (use cases)', () => {
  it('sends one confirmation per new e-mail subscriber and tells nothing before it is followed', async () => {
    const { subscribe, deliveries, feed, announce, subscribers, manage } = await aFollowedPageWorld();
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
    const { page, subscribers, deliveries, feed, windows, announce, clock } = await aFollowedPageWorld();
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
    const { subscribe, page, pages, clock } = await aFollowedPageWorld();
    page.change({ ipAllowlist: ['203.0.113.0/24'] }, clock.now());
    await pages.save(page);
    expect(await codeOf(subscribe.execute({ slug: 'acme' }, visitor, { email: 'x@example.com', componentIds: [] }))).to.equal('forbidden');
  });

  it('lets one visitor address start only 10 subscriptions per page and hour', async () => {
    const { subscribe, deliveries } = await aFollowedPageWorld();
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
