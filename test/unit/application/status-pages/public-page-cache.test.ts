import { aStatusPageInput, aStatusPagesWorld } from '../../../support/builders/status-pages';
import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';
import type { PageObjectives } from '../../../../src/application/status-pages/ports';

const visitor = { ip: '198.51.100.7', accessToken: undefined };

/** Objectives measured by a counter: each measurement answers a new attainment. */
function countingObjectives() {
  const counter = { measured: 0 };
  const record = { id: 5, publicId: 'o-5', customerId: 3, name: 'Checkout' };
  const objectives: PageObjectives = {
    find: async (_scope, ref) => (ref === 'o-5' ? record : null),
    existing: async (_org, ids) => new Map(ids.includes(5) ? [[5, record]] : []),
    measure: async () => {
      counter.measured += 1;
      return [
        {
          ...record,
          subjectType: 'monitor',
          subjectName: 'Shop',
          target: 99.9,
          window: 'rolling30d',
          attainmentPercent: 99 + counter.measured / 100,
          met: false,
          windowFrom: new Date(0),
          windowTo: new Date(0),
        },
      ];
    },
  };
  return { counter, objectives };
}

/** Monitor m-7 ("Shop") and pages over it made with `aPage`, visited through a cache of `maxEntries`. */
function aCachedPageWorld(maxEntries = 10, objectives?: PageObjectives) {
  const world = aStatusPagesWorld({ maxEntries, objectives }).monitor(7, 'Shop');
  const aPage = (slug: string, password: string | null = null, objectiveIds: string[] = []) =>
    world.createPage.execute(
      anActor().build(),
      aStatusPageInput({
        title: slug,
        slug,
        password,
        groups: [{ name: 'x', components: [{ type: 'monitor', id: 'm-7' }] }],
        objectives: objectiveIds,
      }),
    );
  return { ...world, aPage };
}

describe('Status pages: serving the public page (use case)', () => {
  it("measures a page's objectives again a minute after the last measurement, even when nothing else changed", async () => {
    const { counter, objectives } = countingObjectives();
    const { visit, aPage, clock } = aCachedPageWorld(10, objectives);
    await aPage('slo', null, ['o-5']);
    const attainment = async () => {
      const answer = await visit.execute({ slug: 'slo' }, visitor);
      return answer.kind === 'page' ? answer.model.objectives.map((o) => [o.id, o.attainmentPercent]) : null;
    };
    expect(await attainment()).to.deep.equal([['o-5', 99.01]]);
    clock.advance(30_000);
    expect(await attainment(), 'same fingerprint, within the minute').to.deep.equal([['o-5', 99.01]]);
    clock.advance(30_000);
    expect(await attainment(), 'a minute later').to.deep.equal([['o-5', 99.02]]);
    expect(counter.measured).to.equal(2);
  });

  it('a page without objectives keeps its model until the day ends', async () => {
    const { counter, objectives } = countingObjectives();
    const { visit, aPage, clock, readings } = aCachedPageWorld(10, objectives);
    await aPage('plain');
    await visit.execute({ slug: 'plain' }, visitor);
    clock.advance(5 * 60_000);
    await visit.execute({ slug: 'plain' }, visitor);
    expect(counter.measured).to.equal(0);
    expect(readings.fingerprints).to.equal(2);
  });

  it('keeps at most maxEntries pages built, dropping the least recently built', async () => {
    const { visit, aPage, readings } = aCachedPageWorld(1);
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
    const { visit, aPage, pages, clock } = aCachedPageWorld();
    const page = await aPage('a');
    await visit.execute({ slug: 'a' }, visitor);
    await pages.remove(page);
    clock.advance(5_000);
    expect(await codeOf(visit.execute({ slug: 'a' }, visitor))).to.equal('statusPageNotFound');
    expect(visit.fromMemory({ slug: 'a' }, visitor)).to.equal(undefined);
  });

  it('asks for the password from memory too, and shows the page with the access token', async () => {
    const { visit, aPage } = aCachedPageWorld();
    const page = await aPage('locked', 'open-sesame');
    const first = await visit.execute({ slug: 'locked' }, visitor);
    expect(first.kind).to.equal('passwordRequired');
    expect(first.kind === 'passwordRequired' && first.page.id).to.equal(page.id);
    expect(visit.fromMemory({ slug: 'locked' }, visitor)?.kind).to.equal('passwordRequired');
    expect(visit.fromMemory({ slug: 'locked' }, { ...visitor, accessToken: `ok:${page.accessSecret}` })?.kind).to.equal('page');
  });

  it('rebuilds a page whose settings changed, once its refresh window passed', async () => {
    const { visit, aPage, pages, clock } = aCachedPageWorld();
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
    const { visit, aPage, clock, readings } = aCachedPageWorld();
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
