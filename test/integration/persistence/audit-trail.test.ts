import { expect } from 'chai';
import { anOrganization } from '../../support/builders';
import { testServer } from '../../support/test-server';
import { auditContext, type AuditRequestContext } from '../../../src/infrastructure/audit/audit-context';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../src/application/shared/transaction';
import type { SqlRunner } from '../../../src/infrastructure/persistence/database';
import { POOL_SQL } from '../../../src/main/tokens';
import { sqlOf } from '../../../src/infrastructure/persistence/sql-transaction';
import { PurgeAuditLog as PurgeAuditLogUseCase } from '../../../src/application/audit/purge-audit-log';
import { sql } from '../../../src/infrastructure/persistence/sql';
import { AUDIT_TRAIL, type AuditTrail } from '../../../src/application/audit/ports';

const as = (organizationId: number, userId: string): AuditRequestContext => ({
  actor: { actorType: 'user', userId, actorLabel: 'ada@example.com', credentialType: 'session', credentialId: null, organizationId },
  ip: '192.0.2.7',
  requestId: 'req-audit-test',
});

describe("audit trail in the change's own transaction", () => {
  async function world() {
    const app = await testServer();
    const org = await anOrganization('audit-tx');
    const tx = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    const context = app.container.get<SqlRunner>(POOL_SQL);
    const organizationId = org.user.organizationId as number;
    const entries = async (name: string) =>
      app.database.sql.query<{ action: string; actor_type: string; ip: string; request_id: string }>(
        sql`SELECT action, actor_type, ip, request_id FROM audit_log WHERE organization_id = ${organizationId} AND resource_type = 'tag'
         AND changes->'name'->>'after' = ${name}`,
      );
    const tags = async (name: string) =>
      app.database.sql.query(sql`SELECT 1 FROM tags WHERE organization_id = ${organizationId} AND name = ${name}`);
    const insertTag = (runner: SqlRunner, name: string) =>
      runner.query(
        sql`INSERT INTO tags (public_id, organization_id, name, color, created_at, updated_at) VALUES (gen_random_uuid(), ${organizationId}, ${name}, '#3B82F6', now(), now())`,
      );
    return { app, org, tx, context, organizationId, entries, tags, insertTag };
  }

  it('a rolled-back change leaves neither the change nor its entry; a committed one leaves both', async () => {
    const w = await world();
    await auditContext.run(as(w.organizationId, w.org.user.id), async () => {
      await w.tx
        .run(async (t) => {
          await w.insertTag(sqlOf(t), 'rolled-back');
          throw new Error('the rest of the change failed');
        })
        .catch(() => undefined);
      await w.tx.run((t) => w.insertTag(sqlOf(t), 'committed'));
    });
    expect(await w.tags('rolled-back')).to.deep.equal([]);
    expect(await w.entries('rolled-back')).to.deep.equal([]);
    expect(await w.tags('committed')).to.have.length(1);
    expect(await w.entries('committed')).to.deep.equal([
      { action: 'created', actor_type: 'user', ip: '192.0.2.7', request_id: 'req-audit-test' },
    ]);
  });

  it("an entry a use case appends itself (AuditTrail.append) commits with the change's tx, or not at all", async () => {
    const w = await world();
    const trail = w.app.container.get<AuditTrail>(AUDIT_TRAIL);
    const entry = (resourceId: string) => ({
      organizationId: w.organizationId,
      customerId: null,
      actorType: 'user' as const,
      userId: w.org.user.id,
      actorLabel: 'ada@example.com',
      credentialType: 'session',
      resourceType: 'mcpTool',
      resourceId,
      action: 'toolCalled' as const,
    });
    const appended = async (resourceId: string) =>
      w.app.database.sql.query(sql`SELECT 1 FROM audit_log WHERE organization_id = ${w.organizationId} AND resource_id = ${resourceId}`);
    await w.tx
      .run(async (t) => {
        await trail.append(entry('append-rolled-back'), t);
        await w.insertTag(sqlOf(t), 'append-rolled-back');
        throw new Error('the rest of the change failed');
      })
      .catch(() => undefined);
    await w.tx.run(async (t) => {
      await trail.append(entry('append-committed'), t);
      // Not seen from another connection before the change commits.
      expect(await appended('append-committed')).to.deep.equal([]);
    });
    expect(await appended('append-rolled-back')).to.deep.equal([]);
    expect(await appended('append-committed')).to.have.length(1);
  });

  it("every path to the database carries the caller: the plain SQL pool and a statement on MikroORM's pool, outside a transaction", async () => {
    const w = await world();
    await auditContext.run(as(w.organizationId, w.org.user.id), () => w.insertTag(w.app.database.sql, 'via-pool'));
    await auditContext.run(as(w.organizationId, w.org.user.id), () => w.insertTag(w.context, 'autocommit'));
    expect(await w.entries('via-pool')).to.have.length(1);
    expect(await w.entries('autocommit')).to.have.length(1);
  });

  it('work without a caller records nothing, even on a connection a caller used just before', async () => {
    const w = await world();
    // Many statements, so pooled connections are reused across the two kinds of work.
    for (let i = 0; i < 12; i++) {
      await auditContext.run(as(w.organizationId, w.org.user.id), () => w.insertTag(w.app.database.sql, `caller-${i}`));
      await w.insertTag(w.app.database.sql, `engine-${i}`);
      await w.insertTag(w.context, `engine-orm-${i}`);
    }
    for (let i = 0; i < 12; i++) {
      expect(await w.entries(`caller-${i}`)).to.have.length(1);
      expect(await w.entries(`engine-${i}`)).to.deep.equal([]);
      expect(await w.entries(`engine-orm-${i}`)).to.deep.equal([]);
    }
  });
});

describe('audit log retention', () => {
  it('the purge deletes entries older than AUDIT_LOG_RETENTION_DAYS and keeps younger ones', async () => {
    const app = await testServer();
    const org = await anOrganization('audit-purge');
    const organizationId = org.user.organizationId as number;
    const days = app.container.get(PurgeAuditLogUseCase);
    const insert = (label: string, ageDays: number) =>
      app.database.sql.query(
        sql`INSERT INTO audit_log (organization_id, occurred_at, actor_type, resource_type, resource_id, action)
       VALUES (${organizationId}, now() - make_interval(days => ${ageDays}), 'user', 'tag', ${label}, 'created')`,
      );
    await insert('ancient', 4000);
    await insert('recent', 1);
    await days.execute();
    const left = await app.database.sql.query<{ resource_id: string }>(
      sql`SELECT resource_id FROM audit_log WHERE organization_id = ${organizationId} AND resource_id IN ('ancient', 'recent')`,
    );
    expect(left.map((r) => r.resource_id)).to.deep.equal(['recent']);
  });
});
