import { poolTx } from '../../../support/pool-transaction';
import { expect } from 'chai';
import { organizationScope } from '../../../../src/domain/shared/tenant-scope';
import { SqlCustomerRepository } from '../../../../src/infrastructure/tenancy/sql-customer.repository';
import { SqlPackageConfigRepository } from '../../../../src/infrastructure/tenancy/sql-package-config.repository';
import { SqlCustomerDomainRepository } from '../../../../src/infrastructure/tenancy/sql-customer-domain.repository';
import { SqlCustomerIpRepository } from '../../../../src/infrastructure/tenancy/sql-customer-ip.repository';
import { PreparedSql } from '../../../../src/infrastructure/persistence/prepared-sql';
import { sql } from '../../../../src/infrastructure/persistence/sql';
import { anOrganization } from '../../../support/builders';
import { aCustomer } from '../../../support/callers';
import { aDomain } from '../../../support/tenancy-fixtures';
import { api } from '../../../support/http-client';
import { codeOf } from '../../../support/expect-app-error';
import { testServer } from '../../../support/test-server';
import { standalone } from '../../../support/unit-of-work';

const LATER = new Date('2026-12-01T00:00:00Z');

/**
 * Tenancy's repositories on the sql kit: each save names the version it read, so of two writers
 * holding the same version the second is told `conflict` and writes nothing; the mappers read back
 * what they wrote (a null JSON column stays SQL NULL).
 */
describe("tenancy's sql repositories (optimistic versions)", () => {
  async function setup() {
    const org = await anOrganization('tenancy-sql');
    const app = await testServer();
    const unit = standalone(app.database.sql);
    return {
      org,
      scope: organizationScope(org.user.organizationId),
      database: app.database,
      customers: new SqlCustomerRepository(unit),
      packages: new SqlPackageConfigRepository(unit),
      domains: new SqlCustomerDomainRepository(unit, app.container.get(PreparedSql)),
      ips: new SqlCustomerIpRepository(unit, app.container.get(PreparedSql)),
    };
  }

  it('a customer saved by one writer is a conflict for the other holding the same version; null JSON stays NULL', async () => {
    const { org, scope, database, customers } = await setup();
    const created = await aCustomer(org.token, { name: 'Versioned' });
    const [first, second] = [await customers.findByRef(scope, created.publicId), await customers.findByRef(scope, created.publicId)];
    first!.change({ name: 'First writer' }, LATER);
    await customers.save(first!, poolTx());
    second!.change({ name: 'Second writer' }, LATER);
    expect(await codeOf(customers.save(second!, poolTx()))).to.equal('conflict');

    const stored = await customers.findByRef(scope, created.publicId);
    expect(stored).to.deep.include({ name: 'First writer', version: 2, allowedCheckCountryCodes: null, customFields: {} });
    expect(stored!.updatedAt.toISOString()).to.equal(LATER.toISOString());
    const [row] = await database.sql.query<{ unset: boolean }>(
      sql`SELECT allowed_check_country_codes IS NULL AND custom_pricing IS NULL AS unset FROM customers WHERE id = ${stored!.id}`,
    );
    expect(row!.unset).to.equal(true);
  });

  it('a package, a domain and an address: the second save of one version answers conflict', async () => {
    const { org, scope, packages, domains, ips } = await setup();
    const customer = await aCustomer(org.token);
    const created = await api('POST', '/api/package-configs', {
      token: org.token,
      body: { key: 'versioned', displayName: 'Versioned', monitorLimit: 5 },
    });
    const domain = await aDomain(org.token, customer.publicId);
    const ip = await api('POST', `/api/customers/${customer.publicId}/ips`, { token: org.token, body: { ipAddress: '192.0.2.7' } });
    expect([created.status, ip.status]).to.deep.equal([201, 201]);

    const [p1, p2] = [await packages.findByRef(scope, created.body.publicId), await packages.findByRef(scope, created.body.publicId)];
    p1!.change({ displayName: 'First' }, LATER);
    await packages.save(p1!, poolTx());
    p2!.change({ displayName: 'Second' }, LATER);
    expect(await codeOf(packages.save(p2!, poolTx()))).to.equal('conflict');
    expect(await packages.findByRef(scope, created.body.publicId)).to.deep.include({ displayName: 'First', version: 2 });

    const [d1, d2] = [await domains.findByRef(scope, domain.publicId), await domains.findByRef(scope, domain.publicId)];
    d1!.change({ label: 'First' }, LATER);
    await domains.save(d1!, {}, poolTx());
    d2!.change({ label: 'Second' }, LATER);
    expect(await codeOf(domains.save(d2!, {}, poolTx()))).to.equal('conflict');
    expect(await domains.findByRef(scope, domain.publicId)).to.deep.include({ label: 'First', version: 2 });

    const [i1, i2] = [await ips.findByRef(scope, ip.body.publicId), await ips.findByRef(scope, ip.body.publicId)];
    i1!.change({ label: 'First' }, LATER);
    await ips.save(i1!, {}, poolTx());
    i2!.change({ label: 'Second' }, LATER);
    expect(await codeOf(ips.save(i2!, {}, poolTx()))).to.equal('conflict');
    expect(await ips.findByRef(scope, ip.body.publicId)).to.deep.include({ label: 'First', ipAddress: '192.0.2.7', version: 2 });
  });
});
