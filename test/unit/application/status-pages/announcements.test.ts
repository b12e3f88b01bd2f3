import { expect } from 'chai';
import type { PageEvent } from '../../../../src/application/status-pages/ports';
import { MaintenanceWindow } from '../../../../src/domain/maintenance/maintenance-window';
import { StatusPage, type ComponentGroup } from '../../../../src/domain/status-pages/status-page';
import { Subscriber } from '../../../../src/domain/status-pages/subscriber';
import { aStatusPagesWorld } from '../../../support/builders/status-pages';

const ORG = 1;

/** Pages added with `addPage` (each with one subscriber to everything), the events the feed tells of, and what the subscribers were told. */
function anAnnouncingWorld() {
  const world = aStatusPagesWorld();
  const { clock, pages, catalog, subscribers, deliveries } = world;
  catalog
    .add(ORG, { type: 'monitor', id: 7, publicId: 'm-7', customerId: 3, name: 'https://shop.acme.example' })
    .add(ORG, { type: 'customerDomain', id: 5, publicId: 'd-5', customerId: 3, name: 'acme.example' })
    .add(2, { type: 'monitor', id: 70, publicId: 'm-70', customerId: 30, name: 'Theirs' });
  catalog.records.set('monitor:7', { ...catalog.records.get('monitor:7')!, publicName: 'Website' });
  const addPage = async (organizationId: number, slug: string, groups: ComponentGroup[]) => {
    const page = await pages.add(
      StatusPage.create(
        {
          publicId: `p-${slug}`,
          organizationId,
          customerId: null,
          title: slug,
          slug,
          description: null,
          logo: null,
          brandColor: '#000000',
          groups,
          showResponseTimes: false,
          footer: null,
          ipAllowlist: [],
          passwordHash: null,
          accessSecret: 's',
        },
        clock.now(),
      ),
    );
    const s = Subscriber.email(
      { pageId: page.id, organizationId, address: `all@${slug}.example`, componentKeys: [], token: `t-${slug}` },
      clock.now(),
    );
    s.confirm(clock.now());
    await subscribers.add(s);
    return page;
  };
  const event = (over: Partial<PageEvent> & { id: number; kind: PageEvent['kind'] }): PageEvent => ({
    organizationId: ORG,
    monitorId: 7,
    origin: 'automatic',
    subjectId: 'inc-1',
    summary: 'https://shop.acme.example is down',
    occurredAt: clock.now(),
    occurrence: null,
    ...over,
  });
  const told = () => deliveries.rows.map((r) => [(r.message.recipient as { address: string }).address, r.message.subject]);
  return { ...world, addPage, event, told };
}

describe('Status pages: announcing outbox events to subscribers (use case)', () => {
  it('names a monitor as each page shows it, never by the stored text, for automatic incidents', async () => {
    const { feed, announce, addPage, event, told } = anAnnouncingWorld();
    await addPage(ORG, 'named', [{ name: 'x', components: [{ type: 'monitor', id: 7, name: 'Storefront' }] }]);
    await addPage(ORG, 'plain', [{ name: 'x', components: [{ type: 'monitor', id: 7, name: null }] }]);
    feed.events.push(event({ id: 1, kind: 'incidentOpened' }), event({ id: 2, kind: 'incidentResolved', summary: 'back up' }));
    expect(await announce.execute()).to.deep.equal({ events: 2, messages: 4 });
    expect(told()).to.deep.equal([
      ['all@named.example', '[named] Incident: Storefront is down'],
      ['all@plain.example', '[plain] Incident: Website is down'],
      ['all@named.example', '[named] Resolved: Storefront recovered'],
      ['all@plain.example', '[plain] Resolved: Website recovered'],
    ]);
  });

  it("keeps a person's summary of a manual incident", async () => {
    const { feed, announce, addPage, event, told } = anAnnouncingWorld();
    await addPage(ORG, 'named', [{ name: 'x', components: [{ type: 'monitor', id: 7, name: 'Storefront' }] }]);
    feed.events.push(event({ id: 1, kind: 'incidentOpened', origin: 'manual', summary: 'Payments are slow' }));
    await announce.execute();
    expect(told()).to.deep.equal([['all@named.example', '[named] Incident: Payments are slow']]);
  });

  it('keeps the whole incident text in the subject, colons included (only a maintenance summary loses its own prefix)', async () => {
    const { feed, announce, addPage, event, told } = anAnnouncingWorld();
    await addPage(ORG, 'named', [{ name: 'x', components: [{ type: 'monitor', id: 7, name: 'Payments: EU' }] }]);
    feed.events.push(
      event({ id: 1, kind: 'incidentOpened' }),
      event({ id: 2, kind: 'incidentResolved', origin: 'manual', summary: 'Card payments are slow: resolved' }),
    );
    await announce.execute();
    expect(told()).to.deep.equal([
      ['all@named.example', '[named] Incident: Payments: EU is down'],
      ['all@named.example', '[named] Resolved: Card payments are slow: resolved'],
    ]);
  });

  it("tells nobody of an event about a monitor on no page, nor another organization's pages, yet marks it told", async () => {
    const { feed, announce, addPage, event, deliveries } = anAnnouncingWorld();
    await addPage(ORG, 'domains', [{ name: 'x', components: [{ type: 'customerDomain', id: 5, name: null }] }]);
    await addPage(2, 'theirs', [{ name: 'x', components: [{ type: 'monitor', id: 7, name: null }] }]);
    feed.events.push(event({ id: 1, kind: 'incidentOpened' }));
    expect(await announce.execute()).to.deep.equal({ events: 1, messages: 0 });
    expect(deliveries.rows).to.have.length(0);
    expect([...feed.told]).to.deep.equal([1]);
  });

  it('tells of maintenance the pages whose components the window covers, a domain through its customer', async () => {
    const { feed, announce, addPage, event, windows, clock, told } = anAnnouncingWorld();
    await addPage(ORG, 'domains', [{ name: 'x', components: [{ type: 'customerDomain', id: 5, name: null }] }]);
    const window = await windows.add(
      MaintenanceWindow.create(
        {
          publicId: 'w-1',
          organizationId: ORG,
          customerId: 3,
          title: 'DNS move',
          description: null,
          startTime: new Date('2026-06-02T02:00:00Z'),
          endTime: new Date('2026-06-02T03:00:00Z'),
          timezone: 'UTC',
          rrule: null,
          targets: [{ type: 'customer', id: 3 }],
          suppressAlerts: true,
          excludeFromUptime: false,
        },
        clock.now(),
      ),
    );
    const occurrence = { start: window.startTime, end: window.endTime };
    feed.events.push(
      event({
        id: 1,
        kind: 'maintenance.started',
        monitorId: null,
        subjectId: 'w-1',
        summary: 'Maintenance started: DNS move',
        occurrence,
      }),
      event({ id: 2, kind: 'maintenance.ended', monitorId: null, subjectId: 'w-404', summary: 'Maintenance ended: gone', occurrence }),
    );
    expect(await announce.execute()).to.deep.equal({ events: 2, messages: 1 });
    expect(told()).to.deep.equal([['all@domains.example', '[domains] Maintenance started: DNS move']]);
  });

  it('sends nothing twice when a batch is read again (dedup keys per event and subscriber)', async () => {
    const { feed, announce, addPage, event, deliveries } = anAnnouncingWorld();
    await addPage(ORG, 'plain', [{ name: 'x', components: [{ type: 'monitor', id: 7, name: null }] }]);
    feed.events.push(event({ id: 1, kind: 'incidentOpened' }));
    await announce.execute();
    feed.told.clear();
    await announce.execute();
    expect(deliveries.rows).to.have.length(1);
  });
});
