import { aStatusPagesWorld } from '../../../support/builders/status-pages';
import { expect } from 'chai';
import type { ServiceIncident } from '../../../../src/application/status-pages/ports';
import { MaintenanceWindow, type WindowTarget } from '../../../../src/domain/maintenance/maintenance-window';
import { PageIncident } from '../../../../src/domain/status-pages/page-incident';
import { StatusPage, type ComponentGroup } from '../../../../src/domain/status-pages/status-page';

const ORG = 1;
const NOW = new Date('2026-06-01T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (msFromNow: number) => new Date(NOW.getTime() + msFromNow);
const OLD = new Date('2025-01-01T00:00:00Z');

const GROUPS: ComponentGroup[] = [
  {
    name: 'Web',
    components: [
      { type: 'monitor', id: 7, name: 'Storefront' },
      { type: 'monitor', id: 8, name: null },
    ],
  },
  {
    name: 'Assets',
    components: [
      { type: 'customerDomain', id: 5, name: null },
      { type: 'monitor', id: 99, name: 'Deleted since' },
    ],
  },
];

/** Page "Acme" (GROUPS) of organization 1 over two monitors and a domain with readings; `model` builds its public model at NOW. */
function aModelWorld(showResponseTimes = true) {
  const { catalog, readings, incidents, windows, build } = aStatusPagesWorld();
  catalog
    .add(ORG, { type: 'monitor', id: 7, publicId: 'm-7', customerId: 3, name: 'Shop' })
    .add(ORG, { type: 'monitor', id: 8, publicId: 'm-8', customerId: 3, name: 'https://api.acme.example' })
    .add(ORG, { type: 'monitor', id: 10, publicId: 'm-10', customerId: 3, name: 'Not on the page' })
    .add(ORG, { type: 'customerDomain', id: 5, publicId: 'd-5', customerId: 3, name: 'acme.example' });
  catalog.records.set('monitor:8', { ...catalog.records.get('monitor:8')!, publicName: 'Website' });
  const page = Object.assign(
    StatusPage.create(
      {
        publicId: 'p-1',
        organizationId: ORG,
        customerId: null,
        title: 'Acme',
        slug: 'acme',
        description: null,
        logo: null,
        brandColor: '#1f6feb',
        groups: GROUPS,
        showResponseTimes,
        footer: null,
        ipAllowlist: [],
        passwordHash: null,
        accessSecret: 's',
      },
      NOW,
    ),
    { id: 1 },
  );
  readings.read('monitor:7', { lastStatuses: ['up', 'up'], lastResponseTimeMs: 80, createdAt: OLD });
  readings.read('monitor:8', { lastStatuses: ['up', 'degraded'], lastResponseTimeMs: 300, createdAt: OLD });
  readings.read('customerDomain:5', { lastStatuses: ['up'], lastResponseTimeMs: 5, createdAt: OLD });
  const model = () => build.execute(page, 'v1', NOW);
  const service = (over: Partial<ServiceIncident> & { id: number }): ServiceIncident => ({
    publicId: `inc-${over.id}`,
    monitorId: 7,
    origin: 'automatic',
    title: 'https://shop.acme.example is down',
    open: true,
    startedAt: at(-HOUR),
    resolvedAt: null,
    ...over,
  });
  const story = async (over: { title: string; incidentId?: number | null; componentKeys?: string[]; openedAt?: Date }) => {
    const incident = PageIncident.open(
      {
        publicId: `story-${incidents.rows.size + 1}`,
        pageId: page.id,
        incidentId: over.incidentId ?? null,
        incidentPublicId: over.incidentId ? `inc-${over.incidentId}` : null,
        title: over.title,
        componentKeys: over.componentKeys ?? [],
      },
      over.openedAt ?? at(-30 * 60_000),
    );
    incident.post('identified', 'We found it', over.openedAt ?? at(-30 * 60_000));
    return incidents.add(incident);
  };
  const maintenance = (start: Date, end: Date, targets: WindowTarget[] = [{ type: 'monitor', id: 7 }], title = 'Upgrade') =>
    windows.add(
      MaintenanceWindow.create(
        {
          publicId: `w-${windows.rows.size + 1}`,
          organizationId: ORG,
          customerId: null,
          title,
          description: 'Planned',
          startTime: start,
          endTime: end,
          timezone: 'UTC',
          rrule: null,
          targets,
          suppressAlerts: true,
          excludeFromUptime: false,
        },
        at(-10 * DAY),
      ),
    );
  return { catalog, readings, incidents, windows, page, model, service, story, maintenance };
}

describe('Status pages: what the public page shows', () => {
  it('names components by the page, else their public name, else their own; leaves out deleted ones', async () => {
    const { model } = aModelWorld();
    const m = await model();
    expect(m.groups.map((g) => g.components.map((c) => [c.id, c.name]))).to.deep.equal([
      [
        ['m-7', 'Storefront'],
        ['m-8', 'Website'],
      ],
      [['d-5', 'acme.example']],
    ]);
  });

  it('shows each group and the page at their worst component, with the headline of that state', async () => {
    const { model } = aModelWorld();
    const m = await model();
    expect(m.groups.map((g) => g.state)).to.deep.equal(['degraded', 'operational']);
    expect(m).to.include({ state: 'degraded', headline: 'Degraded performance', version: 'v1' });
    expect(m.generatedAt.toISOString()).to.equal(NOW.toISOString());
  });

  it('shows a component with no reading as unknown, never up', async () => {
    const { model, readings } = aModelWorld();
    readings.byKey.delete('customerDomain:5');
    const m = await model();
    expect(m.groups[1]!).to.deep.include({ state: 'unknown' });
    expect(m.groups[1]!.components[0]!.state).to.equal('unknown');
  });

  it("shows monitors' response times only when the page says so, and never a domain's", async () => {
    const shown = await aModelWorld(true).model();
    expect(shown.groups.flatMap((g) => g.components.map((c) => c.responseTimeMs))).to.deep.equal([80, 300, null]);
    const hidden = await aModelWorld(false).model();
    expect(hidden.groups.flatMap((g) => g.components.map((c) => c.responseTimeMs))).to.deep.equal([null, null, null]);
  });

  it('gives monitors 90 daily bars ending today and an uptime figure; domains have neither', async () => {
    const { model, readings } = aModelWorld();
    readings.coverage.set(7, new Map([['2026-05-31', { up: 86_000, degraded: 0, down: 400 }]]));
    const m = await model();
    const shop = m.groups[0]!.components[0]!;
    expect(shop.days).to.have.length(90);
    expect([shop.days![0]!.date, shop.days!.at(-1)!.date]).to.deep.equal(['2026-03-04', '2026-06-01']);
    expect(shop.days!.find((d) => d.date === '2026-05-31')!.state).to.equal('down');
    expect(shop).to.include({ uptimePercent: 99.53, uptimeSince: null });
    expect(m.groups[0]!.components[1]!.uptimePercent, 'nothing known').to.equal(null);
    expect(m.groups[1]!.components[0]).to.include({ days: null, uptimePercent: null, uptimeSince: null });
  });

  it('says since when the uptime counts for a monitor younger than the bars', async () => {
    const { model, readings } = aModelWorld();
    const created = new Date('2026-05-30T06:00:00Z');
    readings.read('monitor:7', { lastStatuses: ['up'], lastResponseTimeMs: 80, createdAt: created });
    readings.coverage.set(7, new Map([['2026-05-31', { up: 86_400, degraded: 0, down: 0 }]]));
    const shop = (await model()).groups[0]!.components[0]!;
    expect(shop.uptimeSince?.toISOString()).to.equal(created.toISOString());
    expect(shop.days!.find((d) => d.date === '2026-05-29')!.state, 'before it existed').to.equal('unknown');
  });

  it('tells of an automatic incident nobody wrote about, named by the monitor as the page calls it now', async () => {
    const { model, readings, service } = aModelWorld();
    readings.serviceIncidents = [service({ id: 41 })];
    const m = await model();
    expect(m.activeIncidents).to.have.length(1);
    expect(m.activeIncidents[0]).to.deep.include({
      id: 'inc-41',
      title: 'Storefront is down',
      status: 'investigating',
      origin: 'automatic',
      componentIds: ['m-7'],
      resolvedAt: null,
    });
    expect(m.activeIncidents[0]!.updates.map((u) => u.message)).to.deep.equal(['We are investigating a problem with Storefront.']);
    expect(m.pastIncidents).to.deep.equal([]);
  });

  it('moves a recovered incident to the past, its resolution first, and keeps a manual incident its own title', async () => {
    const { model, readings, service } = aModelWorld();
    readings.serviceIncidents = [
      service({ id: 41, open: false, resolvedAt: at(-10 * 60_000) }),
      service({ id: 42, monitorId: 8, origin: 'manual', title: 'Planned database failover', startedAt: at(-2 * HOUR) }),
    ];
    const m = await model();
    expect(m.pastIncidents.map((i) => [i.id, i.status, i.title])).to.deep.equal([['inc-41', 'resolved', 'Storefront is down']]);
    expect(m.pastIncidents[0]!.updates.map((u) => u.status)).to.deep.equal(['resolved', 'investigating']);
    expect(m.activeIncidents.map((i) => [i.id, i.origin, i.title])).to.deep.equal([['inc-42', 'manual', 'Planned database failover']]);
  });

  it("tells a page's own incident as written, newest update first, with only its components that still exist", async () => {
    const { model, story } = aModelWorld();
    await story({ title: 'Checkout errors', componentKeys: ['monitor:7', 'monitor:99'] });
    const [told] = (await model()).activeIncidents;
    expect(told).to.deep.include({ id: 'story-1', title: 'Checkout errors', status: 'identified', origin: 'page', componentIds: ['m-7'] });
    expect(told!.updates.map((u) => u.message)).to.deep.equal(['We found it']);
  });

  it("gathers a service incident and its page story in one, the story's default title following the monitor's name", async () => {
    const { model, readings, story, service } = aModelWorld();
    const svc = service({ id: 41 });
    readings.serviceIncidents = [svc, service({ id: 43, startedAt: at(-3 * HOUR) })];
    await story({ title: svc.title, incidentId: 41, componentKeys: ['monitor:7'] });
    await story({ title: 'Our own words', incidentId: 43, componentKeys: ['monitor:7'] });
    const m = await model();
    expect(m.activeIncidents.map((i) => [i.id, i.title, i.startedAt.toISOString()])).to.deep.equal([
      ['story-1', 'Storefront is down', svc.startedAt.toISOString()],
      ['story-2', 'Our own words', at(-3 * HOUR).toISOString()],
    ]);
  });

  it('closes an open story when its service incident recovered, though nobody posted "resolved"', async () => {
    const { model, readings, story, service } = aModelWorld();
    const resolvedAt = at(-5 * 60_000);
    readings.serviceIncidents = [service({ id: 41, open: false, resolvedAt })];
    await story({ title: 'Checkout errors', incidentId: 41 });
    const m = await model();
    expect(m.activeIncidents).to.deep.equal([]);
    const [closed] = m.pastIncidents;
    expect(closed).to.deep.include({ id: 'story-1', status: 'resolved', resolvedAt });
    expect(closed!.updates.map((u) => [u.status, u.message])).to.deep.equal([
      ['resolved', 'This incident has been resolved.'],
      ['identified', 'We found it'],
    ]);
  });

  it('shows a covered component in maintenance and lists the window, with the components it covers on the page', async () => {
    const { model, maintenance, readings } = aModelWorld();
    readings.read('monitor:7', { lastStatuses: ['down'], lastResponseTimeMs: null, createdAt: OLD });
    await maintenance(at(-HOUR), at(2 * HOUR), [{ type: 'customer', id: 3 }]);
    const m = await model();
    expect(m.groups.flatMap((g) => g.components.map((c) => c.state))).to.deep.equal(['maintenance', 'maintenance', 'maintenance']);
    expect(m.activeMaintenance.map((w) => [w.id, w.title, w.description, w.componentIds])).to.deep.equal([
      ['w-1', 'Upgrade', 'Planned', ['m-7', 'm-8', 'd-5']],
    ]);
    expect(m.validUntil.toISOString(), 'rebuilt when the window ends').to.equal(at(2 * HOUR).toISOString());
  });

  it('lists maintenance of the next 30 days in start order, none further ahead and none of components not on the page', async () => {
    const { model, maintenance } = aModelWorld();
    await maintenance(at(20 * DAY), at(20 * DAY + HOUR), undefined, 'Later');
    await maintenance(at(3 * HOUR), at(4 * HOUR), undefined, 'Soon');
    await maintenance(at(31 * DAY), at(31 * DAY + HOUR), undefined, 'Too far');
    await maintenance(at(HOUR), at(2 * HOUR), [{ type: 'monitor', id: 10 }], 'Elsewhere');
    const m = await model();
    expect(m.scheduledMaintenance.map((w) => w.title)).to.deep.equal(['Soon', 'Later']);
    expect(m.activeMaintenance).to.deep.equal([]);
    expect(m.state).to.equal('degraded');
    expect(m.validUntil.toISOString(), 'rebuilt when the next window starts').to.equal(at(3 * HOUR).toISOString());
  });

  it('holds the model until the end of the UTC day when no maintenance comes sooner', async () => {
    const { model } = aModelWorld();
    expect((await model()).validUntil.toISOString()).to.equal('2026-06-02T00:00:00.000Z');
  });
});
