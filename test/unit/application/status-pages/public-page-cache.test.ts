import { expect } from 'chai';
import { CreateStatusPage } from '../../../../src/application/status-pages/create-status-page';
import { BuildPublicStatusPage } from '../../../../src/application/status-pages/build-public-status-page';
import { GetPublicStatusPage } from '../../../../src/application/status-pages/get-public-status-page';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';
import { codeOf } from '../../../support/expect-app-error';
import { sequentialIds } from '../../../support/fakes/shared-fakes';
import { FakeMaintenanceWindows, FakeRecurrence } from '../../../support/fakes/maintenance-fakes';
import {
  fakeAccessTokens,
  FakeComponentCatalog,
  FakePageIncidents,
  FakeStatusPageReadings,
  FakeStatusPages,
} from '../../../support/fakes/status-pages-fakes';

const hasher = { hash: async (p: string) => `hashed:${p}`, verify: async (h: string, p: string) => h === `hashed:${p}` };
const visitor = { ip: '198.51.100.7', accessToken: undefined };

function setup(maxEntries = 10) {
  const clock = new ManualClock('2026-06-01T12:00:00Z');
  const pages = new FakeStatusPages();
  const catalog = new FakeComponentCatalog().add(1, { type: 'monitor', id: 7, publicId: 'm-7', customerId: 3, name: 'Shop' });
  const readings = new FakeStatusPageReadings();
  const build = new BuildPublicStatusPage(catalog, readings, new FakePageIncidents(), new FakeMaintenanceWindows(), new FakeRecurrence());
  const visit = new GetPublicStatusPage(pages, readings, build, fakeAccessTokens, clock, { refreshMs: 5_000, maxEntries });
  const create = new CreateStatusPage(pages, catalog, hasher, sequentialIds(), clock);
  const aPage = (slug: string, password: string | null = null) =>
    create.execute(anActor().build(), {
      title: slug,
      slug,
      description: null,
      logo: null,
      brandColor: '#000000',
      showResponseTimes: false,
      footer: null,
      ipAllowlist: [],
      customerId: null,
      password,
      groups: [{ name: 'x', components: [{ type: 'monitor', id: 'm-7' }] }],
    });
  return { clock, pages, readings, visit, aPage };
}

describe('Status pages: serving the public page (use case)', () => {
  it('keeps at most maxEntries pages built, dropping the least recently built', async () => {
    const { visit, aPage, readings } = setup(1);
    await aPage('a');
    await aPage('b');
    await visit.execute({ slug: 'a' }, visitor);
    expect(visit.fromMemory({ slug: 'a' }, visitor)?.kind).to.equal('page');
    await visit.execute({ slug: 'b' }, visitor);
    expect(visit.fromMemory({ slug: 'a' }, visitor), 'dropped for b').to.equal(undefined);
    expect(visit.fromMemory({ slug: 'b' }, visitor)?.kind).to.equal('page');
    await visit.execute({ slug: 'a' }, visitor);
    expect(readings.fingerprints).to.equal(3);
  });

  it('forgets a deleted page once its refresh window passed: statusPageNotFound', async () => {
    const { visit, aPage, pages, clock } = setup();
    const page = await aPage('a');
    await visit.execute({ slug: 'a' }, visitor);
    await pages.remove(page);
    clock.advance(5_000);
    expect(await codeOf(visit.execute({ slug: 'a' }, visitor))).to.equal('statusPageNotFound');
    expect(visit.fromMemory({ slug: 'a' }, visitor)).to.equal(undefined);
  });

  it('asks for the password from memory too, and shows the page with the access token', async () => {
    const { visit, aPage } = setup();
    const page = await aPage('locked', 'open-sesame');
    const first = await visit.execute({ slug: 'locked' }, visitor);
    expect(first.kind).to.equal('passwordRequired');
    expect(first.kind === 'passwordRequired' && first.page.id).to.equal(page.id);
    expect(visit.fromMemory({ slug: 'locked' }, visitor)?.kind).to.equal('passwordRequired');
    expect(visit.fromMemory({ slug: 'locked' }, { ...visitor, accessToken: `ok:${page.accessSecret}` })?.kind).to.equal('page');
  });

  it('rebuilds a page whose settings changed, once its refresh window passed', async () => {
    const { visit, aPage, pages, clock } = setup();
    const page = await aPage('a');
    const before = await visit.execute({ slug: 'a' }, visitor);
    page.change({ title: 'Renamed' }, clock.now());
    await pages.save(page);
    clock.advance(5_000);
    const after = await visit.execute({ slug: 'a' }, visitor);
    expect(before.kind === 'page' && before.model.page.title).to.equal('a');
    expect(after.kind === 'page' && after.model.page.title).to.equal('Renamed');
  });

  it('rebuilds at the end of the UTC day even when nothing changed (the bars move on)', async () => {
    const { visit, aPage, clock, readings } = setup();
    clock.set('2026-06-01T23:59:59Z');
    await aPage('a');
    const before = await visit.execute({ slug: 'a' }, visitor);
    clock.advance(1_000);
    expect(visit.fromMemory({ slug: 'a' }, visitor), 'past validUntil').to.equal(undefined);
    const after = await visit.execute({ slug: 'a' }, visitor);
    expect(readings.fingerprints).to.equal(2);
    expect(before.kind === 'page' && before.model.validUntil.toISOString()).to.equal('2026-06-02T00:00:00.000Z');
    expect(after.kind === 'page' && after.model.groups[0]!.components[0]!.days!.at(-1)!.date).to.equal('2026-06-02');
  });
});
