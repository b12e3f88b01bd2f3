import { aStatusPageInput, aStatusPagesWorld } from '../../../support/builders/status-pages';
import { expect } from 'chai';
import { CreateStatusPage, type NewStatusPageInput } from '../../../../src/application/status-pages/create-status-page';
import { GetStatusPage } from '../../../../src/application/status-pages/get-status-page';
import { type PublicPageAnswer } from '../../../../src/application/status-pages/get-public-status-page';
import { MaintenanceWindow } from '../../../../src/domain/maintenance/maintenance-window';
import { renderPublicHtml } from '../../../../src/interfaces/http/status-pages/public-html';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';
import { codeOf } from '../../../support/expect-app-error';
import { immediateTransactions, sequentialIds } from '../../../support/fakes/shared-fakes';
import { FakePageIncidentNotices } from '../../../support/fakes/status-pages-fakes';

const ORG = 1;
const hasher = { hash: async (p: string) => `hashed:${p}`, verify: async (h: string, p: string) => h === `hashed:${p}` };
const HOUR = 3600_000;

/** Monitors m-7 ("Shop", customer 3) and m-8 (customer 4); `aPage` makes "Acme" over m-7; page incidents told to recorded notices. */
function aPublicPageWorld(refreshMs = 5_000) {
  const notices = new FakePageIncidentNotices();
  const world = aStatusPagesWorld({ refreshMs, notices });
  world.catalog
    .add(ORG, { type: 'monitor', id: 7, publicId: 'm-7', customerId: 3, name: 'Shop' })
    .add(ORG, { type: 'monitor', id: 8, publicId: 'm-8', customerId: 4, name: "Other customer's API" });
  const aPage = (overrides: Partial<NewStatusPageInput> = {}) => world.createPage.execute(anActor().build(), aStatusPageInput(overrides));
  return { ...world, notices, tell: world.createIncident, aPage };
}
const visitor = { ip: '198.51.100.7', accessToken: undefined };
const modelOf = (answer: PublicPageAnswer) => {
  if (answer.kind !== 'page') throw new Error(`expected the page, got ${answer.kind}`);
  return answer.model;
};

describe('Status pages (use cases)', () => {
  it("lets an organization page show any customer's components, and keeps a customer's page to its own", async () => {
    const { aPage, pages, catalog } = aPublicPageWorld();
    const mixed = await aPage({
      groups: [
        {
          name: 'x',
          components: [
            { type: 'monitor', id: 'm-7' },
            { type: 'monitor', id: 'm-8' },
          ],
        },
      ],
    });
    expect(mixed.components.map((c) => c.id)).to.deep.equal([7, 8]);
    const asCustomer = new CreateStatusPage(pages, catalog, hasher, sequentialIds(), new ManualClock(), immediateTransactions);
    const customerActor = anActor().forCustomer(3).build();
    const input = aStatusPageInput({ title: 'Mine', slug: 'mine', groups: [{ name: 'x', components: [{ type: 'monitor', id: 'm-8' }] }] });
    expect(await codeOf(asCustomer.execute(customerActor, input))).to.equal('monitorNotFound');
    const own = await asCustomer.execute(customerActor, {
      ...input,
      groups: [{ name: 'x', components: [{ type: 'monitor', id: 'm-7' }] }],
    });
    expect(own.customerId).to.equal(3);
  });

  it('answers statusPageNotFound with a reason for a malformed id or a page out of scope, and without one for a missing page', async () => {
    const { aPage, pages } = aPublicPageWorld();
    const page = await aPage();
    const get = new GetStatusPage(pages);
    const reasonOf = async (actor: ReturnType<typeof anActor>, ref: string) =>
      get.execute(actor.build(), { id: ref }).then(
        () => 'found',
        (e) => `${e.code}:${e.details.reason ?? '-'}`,
      );
    expect(await reasonOf(anActor(), 'x/y')).to.equal('statusPageNotFound:malformedId');
    // Out of scope is indistinguishable from missing (no reason).
    expect(await reasonOf(anActor().forCustomer(4), page.publicId)).to.equal('statusPageNotFound:-');
    expect(await reasonOf(anActor().with({ scope: { organizationId: 2, customerId: null } }), String(page.id))).to.equal(
      'statusPageNotFound:-',
    );
    expect(await reasonOf(anActor(), '99')).to.equal('statusPageNotFound:-');
    expect(await reasonOf(anActor(), page.publicId)).to.equal('found');
  });

  it('builds the public page once per change: views within the refresh window reach no database, later ones rebuild only on change', async () => {
    const { aPage, visit, readings, pages, clock } = aPublicPageWorld();
    await aPage();
    readings.read('monitor:7', { lastStatuses: ['up'], lastResponseTimeMs: 80, createdAt: new Date('2026-01-01T00:00:00Z') });
    const first = await visit.execute({ slug: 'acme' }, visitor);
    if (first.kind !== 'page') throw new Error('expected the page');
    expect(first.model.state).to.equal('operational');
    for (let i = 0; i < 20; i += 1) expect(((await visit.execute({ slug: 'acme' }, visitor)) as typeof first).model).to.equal(first.model);
    expect(pages.visitorLookups).to.equal(1);
    expect(readings.fingerprints).to.equal(1);

    clock.advance(6_000);
    expect(((await visit.execute({ slug: 'acme' }, visitor)) as typeof first).model, 'nothing changed: same build').to.equal(first.model);
    expect(readings.fingerprints).to.equal(2);

    readings.read('monitor:7', { lastStatuses: ['down'], lastResponseTimeMs: null, createdAt: new Date('2026-01-01T00:00:00Z') });
    expect(((await visit.execute({ slug: 'acme' }, visitor)) as typeof first).model, 'within the window').to.equal(first.model);
    clock.advance(6_000);
    const after = (await visit.execute({ slug: 'acme' }, visitor)) as typeof first;
    expect(after.model).to.not.equal(first.model);
    expect(after.model.state).to.equal('down');
    expect(after.model.version).to.not.equal(first.model.version);
  });

  it('answers a view from memory only while the built page is fresh and the visitor admitted, reaching no port', async () => {
    const { aPage, visit, readings, pages, clock } = aPublicPageWorld();
    await aPage({ ipAllowlist: ['198.51.100.0/24'] });
    expect(visit.fromMemory({ slug: 'acme' }, visitor), 'nothing built yet').to.equal(undefined);
    const built = modelOf(await visit.execute({ slug: 'acme' }, visitor));
    const answer = visit.fromMemory({ slug: 'acme' }, visitor);
    expect(answer && modelOf(answer)).to.equal(built);
    expect(
      visit.fromMemory({ slug: 'acme' }, { ip: '203.0.113.5', accessToken: undefined }),
      'outside the allowlist: execute refuses it',
    ).to.equal(undefined);
    expect(visit.fromMemory({ slug: 'other' }, visitor)).to.equal(undefined);
    expect([pages.visitorLookups, readings.fingerprints]).to.deep.equal([1, 1]);
    clock.advance(6_000);
    expect(visit.fromMemory({ slug: 'acme' }, visitor), 'past the refresh window: the page must be checked').to.equal(undefined);
  });

  it('shares one rebuild between concurrent views of a stale page', async () => {
    const { aPage, visit, readings } = aPublicPageWorld();
    await aPage();
    const answers = await Promise.all(Array.from({ length: 10 }, () => visit.execute({ slug: 'acme' }, visitor)));
    expect(readings.fingerprints).to.equal(1);
    expect(new Set(answers.map((a) => (a as { model: unknown }).model)).size).to.equal(1);
  });

  it("asks for the password until the visitor has the page's access token, and refuses addresses outside the allowlist", async () => {
    const { aPage, visit } = aPublicPageWorld();
    const page = await aPage({ password: 'sesame-open' });
    expect((await visit.execute({ slug: 'acme' }, visitor)).kind).to.equal('passwordRequired');
    expect((await visit.execute({ pageId: page.id }, { ip: visitor.ip, accessToken: `ok:${page.accessSecret}` })).kind).to.equal('page');
    const other = aPublicPageWorld();
    await other.aPage({ ipAllowlist: ['203.0.113.0/24'] });
    expect(await codeOf(other.visit.execute({ slug: 'acme' }, visitor))).to.equal('forbidden');
    expect((await other.visit.execute({ slug: 'acme' }, { ip: '203.0.113.5', accessToken: undefined })).kind).to.equal('page');
    expect(await codeOf(other.visit.execute({ slug: 'nope' }, visitor))).to.equal('statusPageNotFound');
  });

  it('shows a covered component in maintenance, lists the window, and rebuilds when the window ends', async () => {
    const { aPage, visit, readings, windows, clock } = aPublicPageWorld(60_000);
    await aPage();
    readings.read('monitor:7', { lastStatuses: ['down'], lastResponseTimeMs: null, createdAt: new Date('2026-01-01T00:00:00Z') });
    const window = MaintenanceWindow.create(
      {
        publicId: 'w-1',
        organizationId: ORG,
        customerId: null,
        title: 'Database upgrade',
        description: null,
        startTime: new Date(clock.now().getTime() - HOUR),
        endTime: new Date(clock.now().getTime() + HOUR),
        timezone: 'UTC',
        rrule: null,
        targets: [{ type: 'customer', id: 3 }],
        suppressAlerts: true,
        excludeFromUptime: false,
      },
      clock.now(),
    );
    await windows.add(window);
    const during = modelOf(await visit.execute({ slug: 'acme' }, visitor));
    expect(during.state).to.equal('maintenance');
    expect(during.activeMaintenance).to.have.length(1);
    expect(during.groups[0]!.components[0]!.days!.at(-1)!.state).to.equal('maintenance');
    clock.advance(HOUR + 1000);
    const after = modelOf(await visit.execute({ slug: 'acme' }, visitor));
    expect(after.state, 'the end of the window rebuilds the page before the refresh window').to.equal('down');
  });

  it('shows unknown, not up, for days without results', async () => {
    const { aPage, visit, readings } = aPublicPageWorld();
    await aPage();
    readings.read('monitor:7', { lastStatuses: ['up'], lastResponseTimeMs: null, createdAt: new Date('2026-05-01T00:00:00Z') });
    readings.coverage.set(7, new Map([['2026-05-31', { up: 86_400, degraded: 0, down: 0 }]]));
    const days = modelOf(await visit.execute({ slug: 'acme' }, visitor)).groups[0]!.components[0]!.days!;
    expect(days).to.have.length(90);
    expect(days.find((d) => d.date === '2026-05-31')!.state).to.equal('up');
    expect(days.find((d) => d.date === '2026-05-30')!.state).to.equal('unknown');
    expect(days.find((d) => d.date === '2026-03-10')!.state, 'before the monitor existed').to.equal('unknown');
  });

  it("tells subscribers of each update, and gathers a service incident's updates in one story", async () => {
    const { aPage, tell, readings, notices } = aPublicPageWorld();
    await aPage();
    readings.serviceIncidents = [
      {
        id: 41,
        publicId: 'inc-41',
        monitorId: 7,
        origin: 'automatic',
        title: 'Shop is down',
        open: true,
        startedAt: new Date('2026-06-01T11:50:00Z'),
        resolvedAt: null,
      },
    ];
    const first = await tell.execute(anActor().build(), {
      id: '1',
      incidentId: 'inc-41',
      status: 'investigating',
      message: 'Looking',
      componentIds: [],
    });
    const second = await tell.execute(anActor().build(), {
      id: '1',
      incidentId: 'inc-41',
      status: 'identified',
      message: 'Found it',
      componentIds: [],
    });
    expect(second.incident.publicId).to.equal(first.incident.publicId);
    expect(second.incident.title).to.equal('Shop is down');
    expect(second.componentIds).to.deep.equal(['m-7']);
    expect(notices.told.map((t) => t.status)).to.deep.equal(['investigating', 'identified']);
    expect(
      await codeOf(
        tell.execute(anActor().build(), { id: '1', incidentId: 'inc-99', status: 'investigating', message: 'x', componentIds: [] }),
      ),
    ).to.equal('incidentNotFound');
    expect(await codeOf(tell.execute(anActor().build(), { id: '1', status: 'investigating', message: 'x', componentIds: [] }))).to.equal(
      'validationFailed',
    );
  });

  it('renders a 50-component page with varied history under 100 KB', async () => {
    const { catalog, readings, visit, createPage: create } = aPublicPageWorld();
    const components = Array.from({ length: 50 }, (_, i) => ({ type: 'monitor' as const, id: 100 + i, name: null }));
    for (const c of components) {
      catalog.add(ORG, {
        type: 'monitor',
        id: c.id,
        publicId: `00000000-0000-4000-8000-${String(c.id).padStart(12, '0')}`,
        customerId: 3,
        name: `Service number ${c.id}`,
      });
      readings.read(`monitor:${c.id}`, { lastStatuses: ['up'], lastResponseTimeMs: 120, createdAt: new Date('2025-01-01T00:00:00Z') });
      // A down day every week and a degraded one now and then: many bar segments.
      readings.coverage.set(
        c.id,
        new Map(
          Array.from({ length: 90 }, (_, d) => {
            const date = new Date(Date.UTC(2026, 5, 1) - d * 86_400_000).toISOString().slice(0, 10);
            return [date, { up: 86_000, degraded: d % 5 === 0 ? 200 : 0, down: d % 7 === 0 ? 400 : 0 }];
          }),
        ),
      );
    }
    await create.execute(
      anActor().build(),
      aStatusPageInput({
        title: 'Big',
        slug: 'big',
        description: 'Everything we run',
        showResponseTimes: true,
        footer: 'Footer',
        groups: [0, 1, 2, 3, 4].map((g) => ({
          name: `Group ${g}`,
          components: components.slice(g * 10, g * 10 + 10).map((c) => ({ type: 'monitor' as const, id: String(c.id) })),
        })),
      }),
    );
    const answer = await visit.execute({ slug: 'big' }, visitor);
    if (answer.kind !== 'page') throw new Error('expected the page');
    const html = renderPublicHtml(answer.model, '/status/big');
    expect(html.match(/data-component=/g)).to.have.length(50);
    expect(Buffer.byteLength(html)).to.be.below(100 * 1024);
  });
});
