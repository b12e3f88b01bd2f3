import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization, type SignedUp } from '../../../support/builders';
import { aCustomer } from '../../../support/callers';
import { aMember, PASSWORD, withTwoFactor } from '../../../support/identity-fixtures';
import { aMonitoredCustomer, aWebsite } from '../../../support/monitoring-fixtures';
import { testClock } from '../../../support/test-clock';

type Entry = Record<string, any>;

async function log(token: string): Promise<Entry[]> {
  const response = await api('GET', '/api/audit-log?perPage=200', { token });
  expect(response.status).to.equal(200);
  return response.body.items;
}

async function must(response: Promise<{ status: number; body: any }>): Promise<any> {
  const answer = await response;
  if (answer.status >= 300) throw new Error(`setup request failed ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

interface Case {
  name: string;
  resourceType: string;
  action: 'created' | 'updated' | 'deleted';
  /** Made before the log is read: what the action needs but is not part of it. */
  prepare?(org: SignedUp, world: World): Promise<Entry>;
  run(org: SignedUp, world: World, prepared: Entry): Promise<unknown>;
}

interface World {
  customer: { id: number; publicId: string };
  website: Entry;
  member: { id: string; email: string };
}

const inAnHour = () => new Date(testClock.now().getTime() + 3_600_000).toISOString();
const inTwoHours = () => new Date(testClock.now().getTime() + 7_200_000).toISOString();
const suffix = () => Math.random().toString(36).slice(2, 8);

/** One action of each context's users, each expected to leave exactly one entry. */
const CASES: Case[] = [
  {
    name: 'organization profile changed',
    resourceType: 'organization',
    action: 'updated',
    run: (org) => must(api('PATCH', '/api/organization', { token: org.token, body: { billingEmail: `billing-${suffix()}@example.com` } })),
  },
  { name: 'customer created', resourceType: 'customer', action: 'created', run: (org) => aCustomer(org.token) },
  {
    name: 'customer deleted',
    resourceType: 'customer',
    action: 'deleted',
    prepare: (org) => aCustomer(org.token),
    run: (org, _w, doomed) => must(api('DELETE', `/api/customers/${doomed.publicId}`, { token: org.token })),
  },
  {
    name: 'website created',
    resourceType: 'monitor',
    action: 'created',
    run: (org, w) => aWebsite().forCustomer(w.customer.id).create(org.token),
  },
  {
    name: 'website changed',
    resourceType: 'monitor',
    action: 'updated',
    run: (org, w) => must(api('PATCH', `/api/websites/${w.website.publicId}`, { token: org.token, body: { timeoutSeconds: 17 } })),
  },
  {
    name: 'custom field created',
    resourceType: 'customField',
    action: 'created',
    run: (org) =>
      must(
        api('POST', '/api/custom-fields', {
          token: org.token,
          body: {
            organizationId: org.user.organizationId,
            name: 'Region',
            fieldKey: `region_${suffix()}`,
            fieldType: 'text',
          },
        }),
      ),
  },
  {
    name: 'customer domain created',
    resourceType: 'customerDomain',
    action: 'created',
    run: (org, w) =>
      must(
        api('POST', `/api/customers/${w.customer.publicId}/domains`, {
          token: org.token,
          body: {
            label: 'Shop',
            domainName: `shop-${suffix()}.example.com`,
          },
        }),
      ),
  },
  {
    name: 'maintenance window created',
    resourceType: 'maintenanceWindow',
    action: 'created',
    run: (org, w) =>
      must(
        api('POST', '/api/maintenance-windows', {
          token: org.token,
          body: {
            title: 'Release',
            startTime: inAnHour(),
            endTime: inTwoHours(),
            targets: [{ type: 'customer', id: String(w.customer.id) }],
          },
        }),
      ),
  },
  {
    name: 'manual incident declared',
    resourceType: 'incident',
    action: 'created',
    run: (org, w) => must(api('POST', '/api/incidents', { token: org.token, body: { monitorId: w.website.publicId, title: 'Failover' } })),
  },
  {
    name: 'status page with a password created',
    resourceType: 'statusPage',
    action: 'created',
    run: (org) =>
      must(
        api('POST', '/api/status-pages', {
          token: org.token,
          body: {
            title: 'Public',
            slug: `public-${suffix()}`,
            password: 'a page passphrase',
          },
        }),
      ),
  },
  {
    name: 'user invited',
    resourceType: 'user',
    action: 'created',
    run: (org) =>
      must(
        api('POST', '/api/users', {
          token: org.token,
          body: {
            name: 'New',
            email: `new-${suffix()}@example.com`,
            password: PASSWORD,
            role: 'editor',
          },
        }),
      ),
  },
  {
    name: 'user role changed',
    resourceType: 'user',
    action: 'updated',
    run: (org, w) => must(api('PATCH', `/api/users/${w.member.id}`, { token: org.token, body: { role: 'readonly' } })),
  },
  {
    name: 'data export requested',
    resourceType: 'dataExport',
    action: 'created',
    run: (org) => must(api('POST', '/api/organization/data-export', { token: org.token, body: {} })),
  },
];

describe('audit log coverage', () => {
  for (const c of CASES) {
    it(`${c.name}: exactly one ${c.resourceType} ${c.action} entry, by the admin`, async () => {
      const org = await anOrganization('audit-cover');
      const customer = await aMonitoredCustomer(org.token);
      const website = await aWebsite().forCustomer(customer.id).create(org.token);
      const member = await aMember(org, 'editor');
      const world: World = { customer, website, member };
      const prepared = (await c.prepare?.(org, world)) ?? {};
      const known = new Set((await log(org.token)).map((e) => e.id));
      await c.run(org, world, prepared);
      const added = (await log(org.token)).filter((e) => !known.has(e.id));
      expect(
        added.map((e) => `${e.resourceType} ${e.action}`),
        JSON.stringify(added),
      ).to.deep.equal([`${c.resourceType} ${c.action}`]);
      expect(added[0]!.actor).to.include({ type: 'user', userId: org.user.id });
      expect(JSON.stringify(added[0]!.changes)).not.to.include('a page passphrase');
    });
  }

  it('turning two-step verification on is one entry of the user, its secrets redacted', async () => {
    const org = await anOrganization('audit-mfa');
    const known = new Set((await log(org.token)).map((e) => e.id));
    const { totpURI, backupCodes } = await withTwoFactor(org.token);
    const added = (await log(org.token)).filter((e) => !known.has(e.id) && e.resourceType === 'user' && e.action === 'updated');
    expect(added.length).to.be.at.least(1);
    const text = JSON.stringify(added);
    expect(text).to.include('twoFactorEnabled');
    const secret = new URL(totpURI).searchParams.get('secret')!;
    for (const hidden of [secret, ...backupCodes]) expect(text).not.to.include(hidden);
  });
});
