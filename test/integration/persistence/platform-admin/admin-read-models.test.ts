import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Database } from '../../../../src/infrastructure/persistence/database';
import { openServiceDatabase } from '../../../../src/main/database';
import { SqlAdminOrganizationViews } from '../../../../src/infrastructure/platform-admin/sql-admin-organization-views';
import { SqlAdminUserViews } from '../../../../src/infrastructure/platform-admin/sql-admin-user-views';
import { SqlPlatformUsageViews } from '../../../../src/infrastructure/platform-admin/sql-platform-usage-views';
import { usageWindows } from '../../../../src/domain/platform-admin/usage-windows';
import { aFreshDatabase, type FreshDatabase } from '../../../support/fresh-database';
import { sql, type Sql } from '../../../../src/infrastructure/persistence/sql';

const NOW = new Date('2026-06-10T12:20:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const at = (iso: string) => new Date(iso);

/**
 * The platform staff's read models on a database of their own, so platform-wide figures are exact:
 * organization A has results every 10 minutes since 2026-06-08 (its rolled-up hours also in the
 * rollups, as the maintenance job leaves them), plus an old rollup whose raw rows are gone; B has
 * results in the current hour only; C (suspended) has none.
 */
describe('platform staff read models (SQL)', function () {
  this.timeout(60_000);
  let fresh: FreshDatabase;
  let database: Database;
  const ids: Record<string, number> = {};
  const users: Record<string, string> = {};

  const run = <T = Record<string, unknown>>(statement: Sql) => database.sql.query<T>(statement);

  async function organization(key: string, name: string, status: string, billingEmail: string | null, createdAt: string) {
    const [row] = await run<{ id: number }>(
      sql`INSERT INTO organizations (public_id, name, status, billing_email, created_at, updated_at) VALUES (${randomUUID()}, ${name}, ${status}, ${billingEmail}, ${at(createdAt)}, ${at(createdAt)}) RETURNING id`,
    );
    ids[key] = row!.id;
  }
  async function customer(key: string, organizationKey: string) {
    const [row] = await run<{ id: number }>(
      sql`INSERT INTO customers (public_id, organization_id, name, created_at, updated_at) VALUES (${randomUUID()}, ${ids[organizationKey]}, ${key}, now(), now()) RETURNING id`,
    );
    ids[key] = row!.id;
  }
  async function monitor(key: string, customerKey: string, organizationKey: string, kind = 'website') {
    const [row] = await run<{ id: string }>(
      sql`INSERT INTO monitors (public_id, organization_id, customer_id, kind, name, check_interval_seconds) VALUES (${randomUUID()}, ${ids[organizationKey]}, ${ids[customerKey]}, ${kind}, ${key}, 600) RETURNING id`,
    );
    ids[key] = Number(row!.id);
  }
  async function user(
    key: string,
    organizationKey: string,
    fields: { role?: string; isActive?: boolean; lastSignInAt?: Date | null; name?: string } = {},
  ) {
    users[key] = randomUUID();
    await run(
      sql`INSERT INTO users (id, organization_id, name, email, password_hash, role, is_active, last_sign_in_at, created_at, updated_at)
       VALUES (${users[key]}, ${ids[organizationKey]}, ${fields.name ?? key}, ${`${key}@people.example`}, 'hash', ${fields.role ?? 'admin'}, ${fields.isActive ?? true}, ${fields.lastSignInAt ?? null}, ${NOW}, ${NOW})`,
    );
  }
  async function results(monitorKey: string, from: Date, to: Date, stepMinutes: number) {
    for (let day = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()); day <= to.getTime(); day += 24 * HOUR) {
      await run(sql`SELECT check_results_ensure_partition(${new Date(day).toISOString().slice(0, 10)}::date)`);
    }
    await run(
      sql`INSERT INTO check_results (monitor_id, checked_at, location_id, status)
       SELECT ${ids[monitorKey]}, t, 1, 1 FROM generate_series(${from}::timestamptz, ${to}::timestamptz, ${stepMinutes} * interval '1 minute') t WHERE t < ${to}`,
    );
  }

  before(async () => {
    fresh = await aFreshDatabase('platform_admin_views');
    database = await openServiceDatabase(fresh.url);
    await organization('a', 'Acme Hosting', 'active', 'ap@a.example', '2026-01-01T00:00:00Z');
    await organization('b', 'Bravo Web', 'active', 'accounts@acme-billing.example', '2026-02-01T00:00:00Z');
    await organization('c', 'Charlie 100% Uptime', 'suspended', null, '2026-03-01T00:00:00Z');
    await run(
      sql`INSERT INTO custom_domains (public_id, organization_id, hostname, kind, status, verification_token, created_at, updated_at)
               VALUES (${randomUUID()}, ${ids.c}, 'status.acme.example', 'whiteLabel', 'active', 't', now(), now())`,
    );
    await customer('a1', 'a');
    await customer('a2', 'a');
    await customer('b1', 'b');
    await monitor('ma', 'a1', 'a');
    await monitor('ma-dns', 'a2', 'a', 'dns');
    await monitor('mb', 'b1', 'b');
    await user('ada', 'a', { lastSignInAt: at('2026-06-10T09:00:00Z'), name: 'Ada Lovelace' });
    await user('alan', 'a', { role: 'editor', isActive: false, lastSignInAt: at('2026-06-01T09:00:00Z') });
    await user('bea', 'b', { lastSignInAt: null });
    await user('cyd', 'c', { role: 'readonly' });
    await run(
      sql`INSERT INTO sessions (id, user_id, token_hash, kind, expires_at, created_at) VALUES
               (${randomUUID()}, ${users.ada}, 'h1', 'session', ${new Date(NOW.getTime() + HOUR)}, ${NOW}), (${randomUUID()}, ${users.ada}, 'h2', 'session', ${new Date(NOW.getTime() - HOUR)}, ${NOW}), (${randomUUID()}, ${users.ada}, 'h3', 'twoFactorChallenge', ${new Date(NOW.getTime() + HOUR)}, ${NOW})`,
    );

    // A: every 10 minutes from 2026-06-08 to now; B: five results in the current hour.
    await results('ma', at('2026-06-08T00:00:00Z'), NOW, 10);
    await results('mb', at('2026-06-10T12:00:00Z'), at('2026-06-10T12:05:00Z'), 1);
    // Rolled up to 11:00 today, raw kept from 2026-06-01: the rollups of A's hours, as the job writes them.
    await run(
      sql`INSERT INTO check_rollup_progress (id, rolled_from, rolled_to) VALUES (1, ${at('2026-06-01T00:00:00Z')}, ${at('2026-06-10T11:00:00Z')})`,
    );
    await run(
      sql`INSERT INTO check_result_rollups (monitor_id, hour, location_id, up_seconds, degraded_seconds, down_seconds, up_count, degraded_count,
         down_count, response_ms_sum, response_count, histogram, last_at, last_status)
       SELECT monitor_id, date_trunc('hour', checked_at), location_id, 0, 0, 0, count(*), 0, 0, 0, 0, '{}', max(checked_at), 1
       FROM check_results WHERE checked_at < ${at('2026-06-10T11:00:00Z')} GROUP BY 1, 2, 3`,
    );
    // An old hour whose raw rows were dropped (within 30 days, before raw retention), and one older than 30 days.
    for (const [hour, count] of [
      ['2026-05-25T08:00:00Z', 100],
      ['2026-05-01T08:00:00Z', 1000],
    ] as const) {
      await run(
        sql`INSERT INTO check_result_rollups (monitor_id, hour, location_id, up_seconds, degraded_seconds, down_seconds, up_count, degraded_count,
           down_count, response_ms_sum, response_count, histogram, last_at, last_status) VALUES (${ids.ma}, ${at(hour)}, 1, 0, 0, 0, ${count}, 0, 0, 0, 0, '{}', ${at(hour)}, 1)`,
      );
    }
    // Whole rolled-up hours now answer from the rollups alone: their raw rows may go.
    await run(
      sql`DELETE FROM check_results WHERE checked_at >= ${at('2026-06-09T14:00:00Z')} AND checked_at < ${at('2026-06-10T10:00:00Z')}`,
    );

    await run(
      sql`INSERT INTO customer_sms_usage (customer_id, month, sms_count) VALUES (${ids.a1}, '2026-06-01', 3), (${ids.a2}, '2026-06-01', 4),
               (${ids.b1}, '2026-06-01', 10), (${ids.a1}, '2026-05-01', 1000)`,
    );
    for (const [status, age] of [
      ['delivered', 1],
      ['failed', 2],
      ['failed', 6.9 * 24],
      ['delivered', 7.1 * 24],
    ] as const) {
      await run(
        sql`INSERT INTO notification_deliveries (organization_id, outbox_id, channel_public_id, channel_type, event, payload, status, next_attempt_at, created_at)
                 VALUES (${ids.a}, 1, ${randomUUID()}, 'webhook', 'test', '{}', ${status}, ${NOW}, ${new Date(NOW.getTime() - age * HOUR)})`,
      );
    }
  });

  after(async () => {
    await database?.close();
    await fresh?.drop();
  });

  it('counts checks of the last 24 hours and 30 days from rollups and raw rows, and the raw rows held', async () => {
    const views = new SqlAdminOrganizationViews(database.sql);
    const usage = await views.usage(ids.a!, usageWindows(NOW));
    // 24 h: 12:20 yesterday to 12:10 today, every 10 minutes (144), whatever the source of each hour.
    // 30 days: all 362 results since 2026-06-08 plus the old hour's 100; the hour older than 30 days is out.
    // Held raw rows: from raw retention (2026-06-01) on, i.e. the 362.
    expect(usage.checks).to.deep.equal({ last24h: 144, last30d: 462 });
    expect(usage.resultRows).to.equal(362);
    expect(usage).to.deep.include({
      monitorsByKind: { website: 1, dns: 1 },
      activeMembers: 1,
      smsThisMonth: 7,
      deliveriesLast7d: { delivered: 1, failed: 2, pending: 0 },
      customDomains: [],
    });
    expect((await views.usage(ids.b!, usageWindows(NOW))).checks).to.deep.equal({ last24h: 5, last30d: 5 });
    expect(await views.usage(ids.c!, usageWindows(NOW))).to.deep.include({
      checks: { last24h: 0, last30d: 0 },
      customDomains: ['status.acme.example'],
    });
  });

  it('lists organizations searched (name, billing email, custom domain; % and _ taken literally), filtered, sorted and paged', async () => {
    const views = new SqlAdminOrganizationViews(database.sql);
    const page = (query: Partial<Parameters<typeof views.list>[0]>) => views.list({ sort: 'name', page: 1, perPage: 50, ...query });
    const names = async (query: Partial<Parameters<typeof views.list>[0]>) => (await page(query)).items.map((o) => o.name);
    expect(await names({ search: 'ACME' })).to.deep.equal(['Acme Hosting', 'Bravo Web', 'Charlie 100% Uptime']);
    expect(await names({ search: '0% u' })).to.deep.equal(['Charlie 100% Uptime']);
    expect(await names({ search: '%' })).to.deep.equal(['Charlie 100% Uptime']);
    expect(await names({ search: '_' })).to.deep.equal([]);
    expect(await names({ status: 'suspended' })).to.deep.equal(['Charlie 100% Uptime']);
    expect(await names({ sort: '-monitors' })).to.deep.equal(['Acme Hosting', 'Bravo Web', 'Charlie 100% Uptime']);
    expect(await names({ sort: '-createdAt' })).to.deep.equal(['Charlie 100% Uptime', 'Bravo Web', 'Acme Hosting']);
    const second = await page({ sort: '-name', perPage: 2, page: 2 });
    expect({ names: second.items.map((o) => o.name), total: second.total }).to.deep.equal({ names: ['Acme Hosting'], total: 3 });
    expect(await page({ perPage: 2, page: 3 })).to.deep.equal({ items: [], total: 3 });
    const [acme] = (await page({ search: 'Acme Hosting' })).items;
    expect(acme).to.deep.include({ customers: 2, monitors: 2, members: 2, status: 'active', billingEmail: 'ap@a.example' });
    expect(await views.find(String(ids.a))).to.deep.equal(acme);
    expect(await views.find(acme!.publicId.toUpperCase())).to.deep.equal(acme);
    expect(await views.find('12abc')).to.equal(null);
  });

  it('lists users searched, filtered and sorted by last sign-in (never signed in last), and counts open sessions', async () => {
    const views = new SqlAdminUserViews(database.sql);
    const emails = async (query: Partial<Parameters<typeof views.list>[0]>) =>
      (await views.list({ sort: 'email', page: 1, perPage: 50, ...query })).items.map((u) => u.email.split('@')[0]);
    const bySignIn = await emails({ sort: '-lastSignInAt' });
    expect(bySignIn.slice(0, 2)).to.deep.equal(['ada', 'alan']);
    expect(bySignIn.slice(2)).to.have.members(['bea', 'cyd']);
    expect((await emails({ sort: 'lastSignInAt' })).slice(0, 2)).to.deep.equal(['alan', 'ada']);
    expect(await emails({ search: 'lovelace' })).to.deep.equal(['ada']);
    expect(await emails({ organizationId: ids.a })).to.deep.equal(['ada', 'alan']);
    expect(await emails({ isActive: false })).to.deep.equal(['alan']);
    expect(await emails({ role: 'readonly' })).to.deep.equal(['cyd']);
    expect(await views.list({ sort: 'email', page: 2, perPage: 3 })).to.deep.include({ total: 4 });
    const ada = await views.find(users.ada!, NOW);
    expect(ada).to.deep.include({
      organizationId: ids.a,
      organizationName: 'Acme Hosting',
      organizationStatus: 'active',
      role: 'admin',
      isActive: true,
      mfaEnrolled: false,
      lastSignInAt: at('2026-06-10T09:00:00Z'),
      activeSessions: 1,
    });
    expect(await views.find(randomUUID(), NOW)).to.equal(null);
  });

  it('answers platform totals and the top organizations by monitors, checks of the last 24 hours and SMS', async () => {
    const usage = await new SqlPlatformUsageViews(database.sql).usage(usageWindows(NOW), 2);
    expect(usage.totals).to.deep.equal({
      organizations: 3,
      organizationsByStatus: { active: 2, suspended: 1 },
      customers: 3,
      users: 4,
      activeUsers: 3,
      monitors: 3,
      monitorsByKind: { website: 2, dns: 1 },
      checksLast24h: 149,
      smsThisMonth: 17,
    });
    const top = (list: Array<{ organizationId: number; value: number }>) => list.map((f) => [f.organizationId, f.value]);
    expect(top(usage.top.monitors)).to.deep.equal([
      [ids.a, 2],
      [ids.b, 1],
    ]);
    expect(top(usage.top.checksLast24h)).to.deep.equal([
      [ids.a, 144],
      [ids.b, 5],
    ]);
    expect(top(usage.top.smsThisMonth)).to.deep.equal([
      [ids.b, 10],
      [ids.a, 7],
    ]);
    expect(top((await new SqlPlatformUsageViews(database.sql).usage(usageWindows(NOW), 1)).top.monitors)).to.deep.equal([[ids.a, 2]]);
  });
});
