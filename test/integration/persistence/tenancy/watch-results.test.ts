import { poolTx } from '../../../support/pool-transaction';
import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { aCustomer } from '../../../support/callers';
import { aDomain, anIp } from '../../../support/tenancy-fixtures';
import { withWatchResults } from '../../../support/tenancy-server';
import { testServer } from '../../../support/test-server';
import type { WatchEvent } from '../../../../src/domain/tenancy/watch-events';
import { UNCHECKED_DNSBL, UNCHECKED_EXPIRY } from '../../../../src/domain/tenancy/watch-results';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const at = new Date('2026-12-01T06:00:00Z');
const expiring: WatchEvent = {
  kind: 'domain.expiring',
  mark: 'warning',
  occurredAt: at,
  summary: 'shop.example expires in 20 days',
  data: { band: 'warning', daysLeft: 20 },
};

/** The watch result store: the result, the notice and the outbox events in one statement, guarded by the lastCheckedAt the sweep read. */
describe('watch results with their events (SqlWatchResultStore)', () => {
  const outboxOf = async (organizationId: number) =>
    (await testServer()).database.sql.query<{ kind: string; payload: Record<string, any>; subject: string }>(
      sql`SELECT kind, payload, subject FROM notification_outbox WHERE organization_id = ${organizationId} AND kind <> 'email' ORDER BY id`,
    );
  const expiryRow = async (domainId: number) =>
    (
      await (
        await testServer()
      ).database.sql.query<Record<string, any>>(sql`SELECT * FROM customer_domain_expiry WHERE domain_id = ${domainId}`)
    )[0];

  async function aWatchedDomain() {
    const org = await anOrganization('watch-store');
    const customer = await aCustomer(org.token);
    const domain = await aDomain(org.token, customer.id);
    return { org, organizationId: org.user.organizationId, customerId: customer.id as number, domainId: domain.id as number };
  }

  it('writes the result, the notice and the event together; the event names the record and mark for the ledger', async () => {
    const { organizationId, customerId, domainId } = await aWatchedDomain();
    const recorded = await withWatchResults((store) =>
      store.recordDomainExpiry(
        { organizationId, customerId },
        domainId,
        { ...UNCHECKED_EXPIRY, lastCheckedAt: at },
        { customerId, checkedAt: null, notice: { band: 'warning', at }, events: [expiring] },
        poolTx(),
      ),
    );
    expect(recorded).to.equal(true);
    expect(await expiryRow(domainId)).to.include({ announced_band: 'warning' });
    const outbox = await outboxOf(organizationId);
    expect(outbox.map((o) => [o.kind, o.subject])).to.deep.equal([['domain.expiring', 'shop.example expires in 20 days']]);
    expect(outbox[0]!.payload).to.deep.include({
      kind: 'domain.expiring',
      organizationId,
      customerId,
      monitorId: null,
      incidentId: null,
      occurredAt: at.toISOString(),
      data: { band: 'warning', daysLeft: 20 },
      watch: { type: 'domain', id: domainId, mark: 'warning' },
    });
  });

  it('records nothing and queues nothing when another sweep recorded the domain since it was read', async () => {
    const { organizationId, customerId, domainId } = await aWatchedDomain();
    const announce = (checkedAt: Date | null) =>
      withWatchResults((store) =>
        store.recordDomainExpiry(
          { organizationId, customerId },
          domainId,
          { ...UNCHECKED_EXPIRY, lastCheckedAt: new Date(at.getTime() + 1000) },
          { customerId, checkedAt, notice: { band: 'warning', at }, events: [expiring] },
          poolTx(),
        ),
      );
    expect(await announce(null)).to.equal(true);
    expect(await announce(null), 'a second sweep that read the record before the first wrote').to.equal(false);
    expect(await outboxOf(organizationId)).to.have.length(1);
    expect(await announce(new Date(at.getTime() + 1000)), 'a sweep that read the stored check').to.equal(true);
    expect(await outboxOf(organizationId)).to.have.length(2);
  });

  it('leaves a record of another organization alone, events included', async () => {
    const { customerId, domainId } = await aWatchedDomain();
    const other = await anOrganization('watch-store-other');
    const recorded = await withWatchResults((store) =>
      store.recordDomainExpiry(
        { organizationId: other.user.organizationId, customerId: null },
        domainId,
        { ...UNCHECKED_EXPIRY, lastCheckedAt: at },
        { customerId, checkedAt: null, notice: { band: 'warning', at }, events: [expiring] },
        poolTx(),
      ),
    );
    expect(recorded).to.equal(false);
    expect(await expiryRow(domainId)).to.equal(undefined);
    expect(await outboxOf(other.user.organizationId)).to.deep.equal([]);
  });

  it('keeps the lastNotified* timestamps the ledger set when a later sweep records', async () => {
    const { organizationId, customerId, domainId } = await aWatchedDomain();
    await withWatchResults((store) =>
      store.recordDomainExpiry({ organizationId, customerId }, domainId, { ...UNCHECKED_EXPIRY, lastCheckedAt: at }, undefined, poolTx()),
    );
    const delivered = new Date(at.getTime() + 5000);
    await (
      await testServer()
    ).database.sql.query(sql`UPDATE customer_domain_expiry SET last_notified_warning_at = ${delivered} WHERE domain_id = ${domainId}`);
    const later = new Date(at.getTime() + 86_400_000);
    await withWatchResults((store) =>
      store.recordDomainExpiry(
        { organizationId, customerId },
        domainId,
        { ...UNCHECKED_EXPIRY, lastCheckedAt: later },
        { customerId, checkedAt: at, notice: { band: 'warning', at }, events: [] },
        poolTx(),
      ),
    );
    const row = await expiryRow(domainId);
    expect(row!.last_checked_at).to.deep.equal(later);
    expect(row!.last_notified_warning_at).to.deep.equal(delivered);
  });

  it("writes an IP's listing with its ip.listed event and notice", async () => {
    const org = await anOrganization('watch-store-ip');
    const customer = await aCustomer(org.token);
    const ip = await anIp(org.token, customer.id);
    const organizationId = org.user.organizationId;
    const listed: WatchEvent = { kind: 'ip.listed', mark: 'listed', occurredAt: at, summary: 'listed', data: { isListed: true } };
    const recorded = await withWatchResults((store) =>
      store.recordIpDnsbl(
        { organizationId, customerId: customer.id },
        ip.id,
        { ...UNCHECKED_DNSBL, isListed: true, lastCheckedAt: at },
        { customerId: customer.id, checkedAt: null, notice: { listed: true, at }, events: [listed] },
        poolTx(),
      ),
    );
    expect(recorded).to.equal(true);
    const [row] = await (
      await testServer()
    ).database.sql.query<Record<string, any>>(sql`SELECT * FROM customer_ip_dnsbl WHERE ip_id = ${ip.id}`);
    expect(row).to.include({ is_listed: true, announced_listed: true });
    expect((await outboxOf(organizationId)).map((o) => [o.kind, o.payload.watch])).to.deep.equal([
      ['ip.listed', { type: 'ip', id: ip.id, mark: 'listed' }],
    ]);
  });
});
