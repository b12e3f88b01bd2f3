import { expect } from 'chai';
import { ListAuditLog } from '../../../../src/application/audit/list-audit-log';
import { PurgeAuditLog } from '../../../../src/application/audit/purge-audit-log';
import type { AuditLogFilter, AuditLogPage, AuditLogReader } from '../../../../src/application/audit/ports';
import type { AuditEntry } from '../../../../src/domain/audit/audit-entry';
import type { TenantScope } from '../../../../src/domain/shared/tenant-scope';
import { anActor } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';

const entry = (id: string, organizationId: number, customerId: number | null, occurredAt: Date): AuditEntry => ({
  id,
  occurredAt,
  organizationId,
  customerId,
  actor: { type: 'user', userId: 'u1', label: 'ada@example.com', credentialType: 'session', credentialId: null },
  ip: null,
  requestId: null,
  resourceType: 'customer',
  resourceId: id,
  action: 'created',
  changes: {},
});

/** An in-memory log honouring tenant scope, as the SQL adapter does. */
class InMemoryAuditLog implements AuditLogReader {
  constructor(public entries: AuditEntry[]) {}

  async list(scope: TenantScope, filter: AuditLogFilter, page: { page: number; perPage: number }): Promise<AuditLogPage> {
    const visible = this.entries.filter(
      (e) =>
        e.organizationId === scope.organizationId &&
        (scope.customerId === null || e.customerId === scope.customerId) &&
        (filter.action === undefined || e.action === filter.action),
    );
    return { items: visible.slice((page.page - 1) * page.perPage, page.page * page.perPage), total: visible.length };
  }

  async forEach(organizationId: number, batch: (entries: AuditEntry[]) => Promise<void>): Promise<void> {
    await batch(this.entries.filter((e) => e.organizationId === organizationId));
  }

  async purgeBefore(cutoff: Date): Promise<number> {
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => e.occurredAt >= cutoff);
    return before - this.entries.length;
  }
}

const NOW = new Date('2026-11-24T12:00:00Z');
const DAY = 86_400_000;

describe('ListAuditLog', () => {
  const log = new InMemoryAuditLog([entry('a', 1, 10, NOW), entry('b', 1, 11, NOW), entry('c', 2, null, NOW)]);
  const list = new ListAuditLog(log);
  const page = { page: 1, perPage: 50 };

  it("answers an organization admin the organization's entries only", async () => {
    const result = await list.execute(anActor().inOrganization(1).withRole('admin').build(), {}, page);
    expect(result.items.map((e) => e.id)).to.deep.equal(['a', 'b']);
  });

  it("answers a customer-bound admin its customer's entries only", async () => {
    const result = await list.execute(anActor().inOrganization(1).forCustomer(11).withRole('admin').build(), {}, page);
    expect(result.items.map((e) => e.id)).to.deep.equal(['b']);
  });

  it('refuses editors, read-only users and responders with roleForbidden', async () => {
    for (const role of ['editor', 'readonly', 'responder'] as const) {
      expect(await codeOf(list.execute(anActor().inOrganization(1).withRole(role).build(), {}, page))).to.equal('roleForbidden');
    }
  });

  it('refuses a range whose start is after its end with invalidDateRange', async () => {
    const actor = anActor().inOrganization(1).withRole('admin').build();
    expect(await codeOf(list.execute(actor, { from: NOW, to: new Date(NOW.getTime() - 1) }, page))).to.equal('invalidDateRange');
  });
});

describe('PurgeAuditLog', () => {
  it('deletes entries older than the retention and keeps the rest', async () => {
    const log = new InMemoryAuditLog([
      entry('old', 1, null, new Date(NOW.getTime() - 31 * DAY)),
      entry('edge', 1, null, new Date(NOW.getTime() - 30 * DAY)),
      entry('new', 1, null, new Date(NOW.getTime() - DAY)),
    ]);
    const purged = await new PurgeAuditLog(log, { now: () => NOW }, 30).execute();
    expect(purged).to.equal(1);
    expect(log.entries.map((e) => e.id)).to.deep.equal(['edge', 'new']);
  });
});
