import { expect } from 'chai';
import { StatusPageViews } from '../../../../src/application/status-pages/page-view';
import { isPageRef } from '../../../../src/application/status-pages/page-lookup';
import { anActor } from '../../../support/builders';
import { aStatusPageInput, aStatusPagesWorld } from '../../../support/builders/status-pages';
import { codeOf, expectAppErrorAsync } from '../../../support/expect-app-error';

const ORG = 1;

/** Organization 1's monitors m-7 (customer 3) and m-8, domain d-5 and IP ip-6 (customer 4), customers c-3 and c-20, and organization 2's m-9. */
function aPageCatalogWorld() {
  const world = aStatusPagesWorld();
  world.catalog
    .add(ORG, { type: 'monitor', id: 7, publicId: 'm-7', customerId: 3, name: 'Shop' })
    .add(ORG, { type: 'monitor', id: 8, publicId: 'm-8', customerId: 4, name: 'API' })
    .add(ORG, { type: 'customerDomain', id: 5, publicId: 'd-5', customerId: 4, name: 'api.example' })
    .add(ORG, { type: 'customerIp', id: 6, publicId: 'ip-6', customerId: 4, name: 'Gateway' })
    .add(2, { type: 'monitor', id: 9, publicId: 'm-9', customerId: 20, name: 'Theirs' });
  world.catalog.customers.set('c-3', { id: 3, organizationId: ORG });
  world.catalog.customers.set('c-20', { id: 20, organizationId: 2 });
  const { createPage: create, updatePage: update, removePage: remove, getPage: get, listPages: list } = world;
  return { ...world, create, update, remove, get, list, input: aStatusPageInput };
}

describe('Status pages: managing them (use cases)', () => {
  it('creates an organization page with its components resolved to their records and its password hashed', async () => {
    const { create, input, pages } = aPageCatalogWorld();
    const page = await create.execute(
      anActor().build(),
      input({ password: 'open-sesame', groups: [{ name: 'x', components: [{ type: 'monitor', id: '7', name: 'Store' }] }] }),
    );
    expect(page).to.include({ organizationId: ORG, customerId: null, passwordHash: 'hashed:open-sesame', isPrivate: true });
    expect(page.groups).to.deep.equal([{ name: 'x', components: [{ type: 'monitor', id: 7, name: 'Store' }] }]);
    expect(page.publicId).to.not.equal(page.accessSecret);
    expect(pages.rows.get(page.id)!.slug).to.equal('acme');
  });

  it("gives a page to a named customer of the organization, and answers customerNotFound for another organization's", async () => {
    const { create, input } = aPageCatalogWorld();
    expect((await create.execute(anActor().build(), input({ customerId: 'c-3' }))).customerId).to.equal(3);
    expect(await codeOf(create.execute(anActor().build(), input({ slug: 'x', customerId: 'c-20' })))).to.equal('customerNotFound');
    expect(await codeOf(create.execute(anActor().build(), input({ slug: 'y', customerId: 'nope' })))).to.equal('customerNotFound');
  });

  it("keeps a customer's page to that customer's components: another's is as missing as none, with the type's code", async () => {
    const { create, input } = aPageCatalogWorld();
    const components = { monitor: 'm-8', customerDomain: 'd-5', customerIp: 'ip-6' } as const;
    const codes = { monitor: 'monitorNotFound', customerDomain: 'customerDomainNotFound', customerIp: 'customerIpNotFound' };
    for (const type of ['monitor', 'customerDomain', 'customerIp'] as const) {
      await expectAppErrorAsync(
        create.execute(
          anActor().build(),
          input({ customerId: 'c-3', groups: [{ name: 'x', components: [{ type, id: components[type] }] }] }),
        ),
        codes[type],
        { componentId: components[type] },
      );
    }
    expect(
      await codeOf(create.execute(anActor().build(), input({ groups: [{ name: 'x', components: [{ type: 'monitor', id: 'm-9' }] }] }))),
      "another organization's monitor",
    ).to.equal('monitorNotFound');
    expect(
      await codeOf(create.execute(anActor().build(), input({ groups: [{ name: 'x', components: [{ type: 'customerIp', id: 'm-7' }] }] }))),
    ).to.equal('customerIpNotFound');
  });

  it("makes a customer-scoped caller's pages its customer's, whatever customer it names", async () => {
    const { create, input } = aPageCatalogWorld();
    const page = await create.execute(anActor().forCustomer(3).build(), input({ customerId: 'c-20' }));
    expect(page.customerId).to.equal(3);
  });

  it('is for editors and administrators; a slug in use answers statusPageSlugTaken; a bad definition validationFailed', async () => {
    const { create, input } = aPageCatalogWorld();
    expect(await codeOf(create.execute(anActor().withRole('readonly').build(), input()))).to.equal('roleForbidden');
    await create.execute(anActor().withRole('editor').build(), input());
    expect(await codeOf(create.execute(anActor().build(), input()))).to.equal('statusPageSlugTaken');
    expect(await codeOf(create.execute(anActor().build(), input({ slug: 'other', brandColor: 'blue' })))).to.equal('validationFailed');
  });

  it('changes the fields sent only, and replaces all groups when groups are sent', async () => {
    const { create, update, input, clock } = aPageCatalogWorld();
    const page = await create.execute(anActor().build(), input({ footer: 'Hello' }));
    clock.advance(60_000);
    const changed = await update.execute(anActor().build(), {
      id: page.publicId,
      change: { title: 'Acme Cloud', groups: [{ name: 'API', components: [{ type: 'monitor', id: 'm-8' }] }] },
    });
    expect(changed).to.include({ title: 'Acme Cloud', footer: 'Hello', slug: 'acme', version: 2 });
    expect(changed.groups).to.deep.equal([{ name: 'API', components: [{ type: 'monitor', id: 8, name: null }] }]);
    expect(changed.updatedAt.toISOString()).to.equal(clock.now().toISOString());
    expect(changed.accessSecret, 'no password sent: visitors stay signed in').to.equal(page.accessSecret);
  });

  it("keeps a customer's page to its components on a change too", async () => {
    const { create, update, input, pages } = aPageCatalogWorld();
    const page = await create.execute(anActor().build(), input({ customerId: 'c-3' }));
    expect(
      await codeOf(
        update.execute(anActor().build(), {
          id: page.publicId,
          change: { groups: [{ name: 'x', components: [{ type: 'monitor', id: 'm-8' }] }] },
        }),
      ),
    ).to.equal('monitorNotFound');
    expect(pages.rows.get(page.id)!.components.map((c) => c.id)).to.deep.equal([7]);
  });

  it('signs every visitor out when the password changes or goes, and opens the page when it goes', async () => {
    const { create, update, input } = aPageCatalogWorld();
    const page = await create.execute(anActor().build(), input({ password: 'first-one' }));
    const changed = await update.execute(anActor().build(), { id: page.publicId, change: { password: 'second-one' } });
    expect(changed.passwordHash).to.equal('hashed:second-one');
    expect(changed.accessSecret).to.not.equal(page.accessSecret);
    const opened = await update.execute(anActor().build(), { id: page.publicId, change: { password: null } });
    expect(opened).to.include({ passwordHash: null, isPrivate: false });
    expect(opened.accessSecret).to.not.equal(changed.accessSecret);
  });

  it('refuses a slug another page has, and leaves the stored page as it was', async () => {
    const { create, update, input, pages } = aPageCatalogWorld();
    await create.execute(anActor().build(), input({ slug: 'taken' }));
    const page = await create.execute(anActor().build(), input());
    expect(await codeOf(update.execute(anActor().build(), { id: page.publicId, change: { slug: 'taken' } }))).to.equal(
      'statusPageSlugTaken',
    );
    expect(await codeOf(update.execute(anActor().build(), { id: page.publicId, change: { slug: '-bad' } }))).to.equal('validationFailed');
    expect(pages.rows.get(page.id)!.slug).to.equal('acme');
  });

  it("answers statusPageNotFound for another organization's or another customer's page, to every use case", async () => {
    const { create, update, remove, get, input, pages } = aPageCatalogWorld();
    const page = await create.execute(anActor().build(), input({ customerId: 'c-3' }));
    const outsiders = [anActor().inOrganization(2).build(), anActor().forCustomer(4).build()];
    for (const actor of outsiders) {
      expect(await codeOf(get.execute(actor, { id: page.publicId }))).to.equal('statusPageNotFound');
      expect(await codeOf(update.execute(actor, { id: page.publicId, change: { title: 'Mine now' } }))).to.equal('statusPageNotFound');
      expect(await codeOf(remove.execute(actor, { id: String(page.id) }))).to.equal('statusPageNotFound');
    }
    expect(pages.rows.get(page.id)!.title).to.equal('Acme');
    expect((await get.execute(anActor().forCustomer(3).build(), { id: page.publicId })).id).to.equal(page.id);
  });

  it('deletes a page for a writer only, after which it is not found', async () => {
    const { create, remove, get, input, pages } = aPageCatalogWorld();
    const page = await create.execute(anActor().build(), input());
    expect(await codeOf(remove.execute(anActor().withRole('readonly').build(), { id: page.publicId }))).to.equal('roleForbidden');
    expect((await remove.execute(anActor().withRole('editor').build(), { id: page.publicId })).id).to.equal(page.id);
    expect(pages.rows.size).to.equal(0);
    expect(await codeOf(get.execute(anActor().build(), { id: page.publicId }))).to.equal('statusPageNotFound');
  });

  it("lists the organization's pages to its callers and a customer's own pages to the customer", async () => {
    const { create, list, input } = aPageCatalogWorld();
    await create.execute(anActor().build(), input({ slug: 'org' }));
    await create.execute(anActor().build(), input({ slug: 'c3', customerId: 'c-3' }));
    const slugs = async (actor: ReturnType<ReturnType<typeof anActor>['build']>) => (await list.execute(actor)).map((p) => p.slug).sort();
    expect(await slugs(anActor().withRole('readonly').build())).to.deep.equal(['c3', 'org']);
    expect(await slugs(anActor().forCustomer(3).build())).to.deep.equal(['c3']);
    expect(await slugs(anActor().forCustomer(4).build())).to.deep.equal([]);
    expect(await slugs(anActor().inOrganization(2).build())).to.deep.equal([]);
  });

  it('reads a page id as a uuid or a positive 32-bit integer', () => {
    for (const ref of ['1', '2147483647', '00000000-0000-4000-8000-000000000001', 'ABCDEF00-0000-4000-8000-000000000001'])
      expect(isPageRef(ref), ref).to.equal(true);
    for (const ref of ['0', '-1', '01', '2147483648', '1.0', 'acme', '00000000-0000-4000-8000-00000000001', ''])
      expect(isPageRef(ref), ref).to.equal(false);
  });

  it('shows a page with its components by public id, leaving out those whose record was deleted', async () => {
    const { create, input, catalog } = aPageCatalogWorld();
    const page = await create.execute(
      anActor().build(),
      input({
        groups: [
          {
            name: 'x',
            components: [
              { type: 'monitor', id: 'm-7', name: 'Store' },
              { type: 'monitor', id: 'm-8' },
            ],
          },
        ],
      }),
    );
    catalog.records.delete('monitor:8');
    const view = await new StatusPageViews(catalog).one(page);
    expect(view.groups).to.deep.equal([{ name: 'x', components: [{ type: 'monitor', id: 'm-7', name: 'Store', recordName: 'Shop' }] }]);
    expect(await new StatusPageViews(catalog).many([])).to.deep.equal([]);
  });
});
