import { randomBytes } from 'node:crypto';
import { api } from './http-client';
import { TEST_PLATFORM_ADMIN, testServer } from './test-server';
import { signIn } from './identity-fixtures';
import { sql } from '../../src/infrastructure/persistence/sql';
import { kindOf, type PerKindType } from '../../src/domain/monitoring/kinds';

const suffix = () => randomBytes(3).toString('hex');

/** A package config through the API (tenancy): quota tiers and the minimum check interval. */
export async function aMonitorPackage(
  token: string,
  body: { minCheckIntervalMinutes?: number; quotaTiers?: Array<{ monitorLimit: number; priceMonthly: number }> } = {},
): Promise<{ id: number }> {
  const key = `mon-${suffix()}`;
  const response = await api('POST', '/api/package-configs', {
    token,
    body: {
      key,
      displayName: `Monitoring ${key}`,
      minCheckIntervalMinutes: 1,
      quotaTiers: [{ monitorLimit: 100, priceMonthly: 0 }],
      ...body,
    },
  });
  if (response.status !== 200 && response.status !== 201) throw new Error(`package create failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A customer through the API (tenancy) with the self-service settings the monitor rules read. */
export async function aMonitoredCustomer(
  token: string,
  settings: { allowSelfService?: boolean; maxSelfServiceUrls?: number; canEditManaged?: boolean; packageId?: number } = {},
): Promise<{ id: number; publicId: string }> {
  const response = await api('POST', '/api/customers', {
    token,
    body: {
      name: `Customer ${suffix()}`,
      email: `customer-${suffix()}@test.example`,
      allowSelfService: true,
      maxSelfServiceUrls: 10,
      ...settings,
    },
  });
  if (response.status !== 200) throw new Error(`customer create failed: ${JSON.stringify(response.body)}`);
  return response.body.customer;
}

export const PUBLIC_URL = 'https://www.monitor-fixture.com/health';

/**
 * The body of a valid POST /api/websites: an HTTP check of PUBLIC_URL, with modifiers for what a
 * test means (`aWebsite().forCustomer(id).heartbeat().build()`); `create(token)` posts it.
 */
export class WebsiteBuilder {
  private body: Record<string, unknown> = { url: PUBLIC_URL };

  forCustomer(customerId: number | string): this {
    return this.with({ customerId });
  }

  named(name: string): this {
    return this.with({ name });
  }

  /** Checked every `checkInterval` (the API's unit: minutes). */
  every(checkInterval: number): this {
    return this.with({ checkInterval });
  }

  /** A heartbeat monitor: no URL, beats expected every `checkInterval` (minutes). */
  heartbeat(checkInterval?: number): this {
    const { url: _url, ...rest } = this.body;
    this.body = { ...rest, monitoringType: 'heartbeat', ...(checkInterval === undefined ? {} : { checkInterval }) };
    return this;
  }

  paused(): this {
    return this.with({ status: 'paused' });
  }

  selfService(): this {
    return this.with({ managementType: 'self_service' });
  }

  with(fields: Record<string, unknown>): this {
    this.body = { ...this.body, ...fields };
    return this;
  }

  build(): Record<string, unknown> {
    return { ...this.body };
  }

  /** Creates it through the API; fails the test setup (not the test) when refused. */
  async create(token: string): Promise<Record<string, any>> {
    const response = await api('POST', '/api/websites', { token, body: this.build() });
    if (response.status !== 201) throw new Error(`website create failed: ${JSON.stringify(response.body)}`);
    return response.body;
  }
}

/** A website builder; `aWebsite(token, body)` creates one at once (PUBLIC_URL unless the body names a URL). */
export function aWebsite(): WebsiteBuilder;
export function aWebsite(token: string, body: Record<string, unknown>): Promise<Record<string, any>>;
export function aWebsite(token?: string, body: Record<string, unknown> = {}): WebsiteBuilder | Promise<Record<string, any>> {
  const builder = new WebsiteBuilder();
  return token === undefined ? builder : builder.with(body).create(token);
}

/** A kind's sample create body (its descriptor's), aimed at a public host of the test DNS. */
export function kindSample(type: PerKindType): Record<string, unknown> {
  const kind = kindOf(type);
  return { ...kind.sample, hostname: kind.hostname === 'names' ? 'monitor-fixture.com' : 'mail.monitor-fixture.com' };
}

export async function aMonitor(token: string, type: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await api('POST', `/api/monitors/${type}`, { token, body });
  if (response.status !== 201) throw new Error(`${type} monitor create failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function aTag(token: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await api('POST', '/api/tags', { token, body: { name: `tag-${suffix()}`, color: '#3B82F6', ...body } });
  if (response.status !== 201) throw new Error(`tag create failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Sets organizations.auto_quota_upgrade in the database (the API is PATCH /api/organization/quota-tier, admins only). */
export async function setAutoQuotaUpgrade(organizationId: number, enabled: boolean): Promise<void> {
  const { database } = await testServer();
  await database.sql.query(sql`UPDATE organizations SET auto_quota_upgrade = ${enabled} WHERE id = ${organizationId}`);
}

/** Raw columns of a monitor, to prove what is (not) stored. */
export async function storedMonitor(publicId: string): Promise<Record<string, any>> {
  const { database } = await testServer();
  const [row] = await database.sql.query(sql`SELECT * FROM monitors WHERE public_id = ${publicId}`);
  return row!;
}

/**
 * Runs `work` with the platform's agent-write switch on, then off again. Signs the platform admin in
 * afresh: other tests move the shared clock past session lifetimes.
 */
export async function withAgentWrites<T>(work: () => Promise<T>): Promise<T> {
  const { token } = await signIn(TEST_PLATFORM_ADMIN.email, TEST_PLATFORM_ADMIN.password);
  const set = async (agentWritesEnabled: boolean) => {
    const response = await api('PATCH', '/api/platform-admin/settings', { token, body: { agentWritesEnabled } });
    if (response.status !== 200) throw new Error(`platform switch failed: ${JSON.stringify(response.body)}`);
  };
  await set(true);
  try {
    return await work();
  } finally {
    await set(false);
  }
}
