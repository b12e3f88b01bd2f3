import { aTenancyWorld } from '../../../support/builders/tenancy';
import { expect } from 'chai';
import { CustomField } from '../../../../src/domain/tenancy/custom-field';
import { anActor } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';

const admin = anActor().build();
const customerScoped = (customerId: number) => anActor().viaApiToken().forCustomer(customerId).build();

describe('CreateCustomer', () => {
  it('gives an organization without packages the built-in standard package', async () => {
    const s = aTenancyWorld();
    const view = await s.create.execute(admin, { name: 'Acme', email: 'a@acme.test' });
    expect(view.package).to.include({ key: 'standard', isDefault: true });
    expect(s.packages.rows).to.have.length(1);
    expect(view).to.include({ smsUsageCurrentMonth: 0 });
  });

  it('refuses customer-scoped callers and read-only roles before touching anything', async () => {
    const s = aTenancyWorld();
    expect(await codeOf(s.create.execute(customerScoped(1), { name: 'A', email: 'a@a.test' }))).to.equal('customerScopedTokenForbidden');
    expect(await codeOf(s.create.execute(anActor().withRole('readonly').build(), { name: 'A', email: 'a@a.test' }))).to.equal(
      'roleForbidden',
    );
    expect(await codeOf(s.create.execute(anActor().withRole('responder').build(), { name: 'A', email: 'a@a.test' }))).to.equal(
      'roleForbidden',
    );
    expect(s.customers.rows).to.have.length(0);
  });

  it('never stores an unknown package type', async () => {
    const s = aTenancyWorld();
    await s.addPackage('gold', 'Gold');
    expect(await codeOf(s.create.execute(admin, { name: 'A', email: 'a@a.test', packageType: 'silver' }))).to.equal('invalidPackageType');
    expect(s.customers.rows).to.have.length(0);
  });

  it('stores validated custom field values', async () => {
    const s = aTenancyWorld();
    await s.fields.add(
      new CustomField({
        publicId: 'f',
        organizationId: 1,
        fieldKey: 'seats',
        name: 'Seats',
        fieldType: 'number',
        isRequired: true,
        displayOrder: 0,
        options: [],
        placeholder: null,
        helpText: null,
        showInTable: false,
        now: s.clock.now(),
      }),
    );
    expect(await codeOf(s.create.execute(admin, { name: 'A', email: 'a@a.test' }))).to.equal('invalidCustomFields');
    const view = await s.create.execute(admin, { name: 'A', email: 'a@a.test', customFields: { seats: 4 } });
    expect(view.customer.customFields).to.deep.equal({ seats: 4 });
  });
});

describe('UpdateCustomer', () => {
  it("lets a customer-scoped writer change its details, not the organization's terms", async () => {
    const s = aTenancyWorld();
    const { customer } = await s.create.execute(admin, { name: 'Acme', email: 'a@acme.test' });
    const scoped = customerScoped(customer.id);
    const renamed = await s.update.execute(scoped, { id: customer.publicId, change: { name: 'Acme Inc', alertReminderInterval: 30 } });
    expect(renamed.customer).to.include({ name: 'Acme Inc', alertReminderInterval: 30 });
    const refused = await s.update
      .execute(scoped, { id: customer.publicId, change: { status: 'cancelled', canEditManaged: true } })
      .catch((error) => error);
    expect(refused).to.include({ code: 'customerScopedTokenForbidden' });
    expect(refused.details.fields).to.deep.equal(['status', 'canEditManaged']);
    expect(customer).to.include({ status: 'active', canEditManaged: false });
  });

  it('keeps the package when the new packageType is unknown, and answers customerNotFound out of scope', async () => {
    const s = aTenancyWorld();
    const { customer } = await s.create.execute(admin, { name: 'Acme', email: 'a@acme.test' });
    expect(await codeOf(s.update.execute(admin, { id: String(customer.id), change: { packageType: 'nope', name: 'X' } }))).to.equal(
      'invalidPackageType',
    );
    expect(customer).to.include({ name: 'Acme', packageId: 1 });
    expect(await codeOf(s.update.execute(customerScoped(customer.id + 1), { id: String(customer.id), change: { name: 'X' } }))).to.equal(
      'customerNotFound',
    );
    expect(await codeOf(s.update.execute(anActor().inOrganization(2).build(), { id: String(customer.id), change: {} }))).to.equal(
      'customerNotFound',
    );
  });

  it('answers conflict when the customer was changed since it was read', async () => {
    const s = aTenancyWorld();
    const { customer } = await s.create.execute(admin, { name: 'Acme', email: 'a@acme.test' });
    s.customers.versions.concurrentWriteOnNextSave = true;
    expect(await codeOf(s.update.execute(admin, { id: customer.publicId, change: { name: 'Lost' } }))).to.equal('conflict');
    expect((await s.update.execute(admin, { id: customer.publicId, change: { name: 'Won' } })).customer).to.include({
      name: 'Won',
      version: 2,
    });
  });

  it('moves to the named package at its base tier', async () => {
    const s = aTenancyWorld();
    const { customer } = await s.create.execute(admin, { name: 'Acme', email: 'a@acme.test' });
    const gold = await s.addPackage('gold', 'Gold');
    customer.quotaTierIndex = 1;
    const view = await s.update.execute(admin, { id: customer.publicId, change: { packageType: 'Gold' } });
    expect(view.customer).to.include({ packageId: gold.id, quotaTierIndex: 0 });
    expect(view.package).to.equal(gold);
  });
});

describe('CreateCustomersInBulk', () => {
  it('lists every failed row, those the edge rejected included, and creates nothing', async () => {
    const s = aTenancyWorld();
    const refused = await s.bulk
      .execute(admin, {
        rows: [{ name: 'A', email: 'a@a.test' }, null, { name: 'C', email: 'c@c.test', packageId: 99 }],
        rejected: [{ index: 1, code: 'validationFailed', message: 'Validation failed' }],
      })
      .catch((error) => error);
    expect(refused.code).to.equal('bulkRowsRejected');
    expect(refused.details.rows.map((r: { index: number; code: string }) => [r.index, r.code])).to.deep.equal([
      [1, 'validationFailed'],
      [2, 'invalidPackageType'],
    ]);
    expect(s.customers.rows).to.have.length(0);
  });

  it('creates all rows when every row is valid', async () => {
    const s = aTenancyWorld();
    const views = await s.bulk.execute(admin, {
      rows: [
        { name: 'A', email: 'a@a.test' },
        { name: 'B', email: 'b@b.test' },
      ],
      rejected: [],
    });
    expect(views.map((v) => v.customer.name)).to.deep.equal(['A', 'B']);
  });
});

describe('DeleteCustomer', () => {
  it('deletes in scope, forgets cached callers, and refuses customer-scoped callers', async () => {
    const s = aTenancyWorld();
    const { customer } = await s.create.execute(admin, { name: 'Acme', email: 'a@acme.test' });
    expect(await codeOf(s.remove.execute(customerScoped(customer.id), { id: customer.publicId }))).to.equal('customerScopedTokenForbidden');
    expect(s.invalidations()).to.equal(0);
    const deletion = await s.remove.execute(admin, { id: customer.publicId });
    expect(deletion).to.include({ customer, deletedDomains: 0, deletedIps: 0 });
    expect(s.customers.rows).to.have.length(0);
    expect(s.invalidations()).to.equal(1);
  });
});
