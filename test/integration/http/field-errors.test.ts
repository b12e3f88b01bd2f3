import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { api, type ApiResponse } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { aMonitor, aMonitoredCustomer, aMonitorPackage, aWebsite, PUBLIC_URL } from '../../support/monitoring-fixtures';
import { aCustomField } from '../../support/tenancy-fixtures';
import { testServer } from '../../support/test-server';
import { LoopbackTargetPolicy } from '../../support/loopback-target-policy';
import { OidcPeer } from '../../support/peers/oidc-peer';
import { SSO_TARGET_POLICY } from '../../../src/application/identity/sso-ports';
import { MONITOR_TARGET_POLICY } from '../../../src/application/monitoring/ports';
import { describeApi } from '../../../src/main/api-description';

const CALLBACK = 'http://api.test.example/api/auth/sso/callback';
const CLIENT = { client_id: 'wsm', client_secret: 'wsm-client-secret' };
const later = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const aDomain = () => `acme-${randomBytes(4).toString('hex')}.example`;

/** What a provocation needs: an organization's token, two customers, a website and an IMAP monitor of the first, an SSO issuer and another organization. */
interface World {
  token: string;
  customerId: number;
  otherCustomerId: number;
  website: Record<string, any>;
  imap: Record<string, any>;
  issuer: string;
  foreignToken: string;
}

/** One request per field-level code, and the field its answer must point at. */
const PROVOCATIONS: Record<string, { field: string; send: (w: World) => Promise<ApiResponse> }> = {
  validationFailed: {
    field: '/target',
    send: (w) =>
      api('POST', '/api/service-levels', {
        token: w.token,
        body: { name: 'S', target: 100, subject: { type: 'website', websiteId: w.website.publicId } },
      }),
  },
  checkIntervalTooLow: {
    field: '/checkInterval',
    send: async (w) => {
      const strict = await aMonitoredCustomer(w.token, { packageId: (await aMonitorPackage(w.token, { minCheckIntervalMinutes: 10 })).id });
      return api('POST', '/api/websites', { token: w.token, body: { customerId: strict.id, url: PUBLIC_URL, checkInterval: 2 } });
    },
  },
  checkIntervalTooHigh: {
    field: '/checkInterval',
    send: (w) => api('PATCH', `/api/websites/${w.website.publicId}`, { token: w.token, body: { checkInterval: 1441 } }),
  },
  invalidCheckInterval: {
    field: '/checkInterval',
    send: (w) => api('PATCH', `/api/websites/${w.website.publicId}`, { token: w.token, body: { checkInterval: 'ten' } }),
  },
  invalidTimeout: {
    field: '/timeoutSeconds',
    send: (w) => api('PATCH', `/api/websites/${w.website.publicId}`, { token: w.token, body: { timeoutSeconds: 99 } }),
  },
  invalidCheckConfig: {
    field: '/sslNoticeDays',
    send: (w) => api('PATCH', `/api/websites/${w.website.publicId}/check-config`, { token: w.token, body: { sslNoticeDays: 366 } }),
  },
  invalidUrl: {
    field: '/url',
    send: (w) => api('PATCH', `/api/websites/${w.website.publicId}`, { token: w.token, body: { url: 'https://localhost/' } }),
  },
  connectHostInvalid: {
    field: '/connectHost',
    send: (w) => api('PATCH', `/api/websites/${w.website.publicId}`, { token: w.token, body: { connectHost: 'a/b' } }),
  },
  connectHostNotPublic: {
    field: '/connectHost',
    send: (w) => api('PATCH', `/api/websites/${w.website.publicId}`, { token: w.token, body: { connectHost: 'localhost' } }),
  },
  connectTlsInsecureWithoutHost: {
    field: '/connectTlsInsecure',
    send: (w) => api('PATCH', `/api/websites/${w.website.publicId}`, { token: w.token, body: { connectTlsInsecure: true } }),
  },
  portRequiredForTcp: {
    field: '/port',
    send: (w) => api('PATCH', `/api/monitors/imap-pop/${w.imap.publicId}`, { token: w.token, body: { checkMode: 'tcp' } }),
  },
  invalidCheckMode: {
    field: '/checkMode',
    send: (w) => api('PATCH', `/api/monitors/imap-pop/${w.imap.publicId}`, { token: w.token, body: { checkMode: 'udp' } }),
  },
  invalidCustomFields: {
    field: '/customFields/tier',
    send: async (w) => {
      await aCustomField(w.token, { name: 'Tier', fieldKey: 'tier', fieldType: 'select', options: ['gold'], isRequired: true });
      return api('POST', '/api/customers', { token: w.token, body: { name: 'C', email: 'c@c.test', customFields: {} } });
    },
  },
  dependencyCycle: {
    field: '/dependsOn',
    send: (w) => api('PATCH', `/api/websites/${w.website.publicId}`, { token: w.token, body: { dependsOn: [w.website.publicId] } }),
  },
  dependencyNotFound: {
    field: '/dependsOn',
    send: async (w) => {
      const foreign = await aWebsite(w.foreignToken, { customerId: (await aMonitoredCustomer(w.foreignToken)).id });
      return api('PATCH', `/api/websites/${w.website.publicId}`, { token: w.token, body: { dependsOn: [foreign.publicId] } });
    },
  },
  dependencyNotShared: {
    field: '/dependsOn',
    send: async (w) => {
      const own = await aWebsite(w.token, { customerId: w.customerId, managementType: 'self_service', url: PUBLIC_URL });
      const mine = await aWebsite(w.token, { customerId: w.otherCustomerId, url: PUBLIC_URL });
      return api('PATCH', `/api/websites/${mine.publicId}`, { token: w.token, body: { dependsOn: [own.publicId] } });
    },
  },
  tooManyDependencies: {
    field: '/dependsOn',
    send: async (w) => {
      const sites: string[] = [];
      for (let i = 0; i < 21; i++)
        sites.push((await aWebsite(w.token, { customerId: w.customerId, url: PUBLIC_URL, name: `D${i}` })).publicId);
      return api('PATCH', `/api/websites/${w.website.publicId}`, { token: w.token, body: { dependsOn: sites } });
    },
  },
  endTimeBeforeStartTime: {
    field: '/endTime',
    send: (w) =>
      api('POST', '/api/maintenance-windows', {
        token: w.token,
        body: { title: 'T', startTime: later(2), endTime: later(1), targets: [{ type: 'website', id: w.website.publicId }] },
      }),
  },
  invalidWindow: {
    field: '/endTime',
    send: (w) =>
      api('POST', '/api/maintenance-windows/preview-occurrences', { token: w.token, body: { startTime: later(2), endTime: later(1) } }),
  },
  missingTargetId: {
    field: '/targets/1/id',
    send: (w) =>
      api('POST', '/api/maintenance-windows', {
        token: w.token,
        body: {
          title: 'T',
          startTime: later(1),
          endTime: later(2),
          targets: [{ type: 'website', id: w.website.publicId }, { type: 'customer' }],
        },
      }),
  },
  invalidServiceLevelObjective: {
    field: '/target',
    send: (w) =>
      api('POST', '/api/service-levels', {
        token: w.token,
        body: { name: 'S', target: 99.9985, subject: { type: 'website', websiteId: w.website.publicId } },
      }),
  },
  ssoIssuerInvalid: { field: '/issuer', send: (w) => sso(w, { issuer: 'http://idp.example.com' }) },
  ssoDomainInvalid: { field: '/allowedDomains', send: (w) => sso(w, { allowedDomains: ['not a domain'] }) },
  ssoDomainTaken: {
    field: '/allowedDomains',
    send: async (w) => {
      const domain = aDomain();
      expect((await sso({ ...w, token: w.foreignToken }, { allowedDomains: [domain] })).status).to.equal(200);
      return sso(w, { allowedDomains: [domain] });
    },
  },
  ssoGroupRoleInvalid: { field: '/groupRoles', send: (w) => sso(w, { groupClaim: 'groups', groupRoles: { ops: 'owner' } }) },
  ssoBreakGlassRequired: { field: '/breakGlassUserId', send: (w) => sso(w, { ssoOnly: true }) },
};

const sso = (w: World, extra: Record<string, unknown>) =>
  api('PUT', '/api/organization/sso', {
    token: w.token,
    body: {
      issuer: w.issuer,
      clientId: CLIENT.client_id,
      clientSecret: CLIENT.client_secret,
      allowedDomains: [aDomain()],
      defaultRole: 'readonly',
      ...extra,
    },
  });

/** Codes that name a field only where a rule concerns one: the requests that must carry it. */
const IN_CONTEXT: Array<{ code: string; field: string; send: (w: World) => Promise<ApiResponse> }> = [
  {
    code: 'websiteNotFound',
    field: '/subject/websiteId',
    send: (w) =>
      api('POST', '/api/service-levels', {
        token: w.token,
        body: { name: 'S', target: 99.9, subject: { type: 'website', websiteId: '00000000-0000-4000-8000-000000000000' } },
      }),
  },
  {
    code: 'customerNotFound',
    field: '/targets/0/id',
    send: (w) =>
      api('POST', '/api/maintenance-windows', {
        token: w.token,
        body: { title: 'T', startTime: later(1), endTime: later(2), targets: [{ type: 'customer', id: '999999' }] },
      }),
  },
];

/**
 * Every field-level code the OpenAPI document lists (ErrorEnvelope data.field x-field-error-codes) is
 * provoked through HTTP, and its answer names the field as a JSON pointer into the body in data.field.
 */
describe('field errors: every field-level code names its field as a JSON pointer', function () {
  this.timeout(120_000);
  let peer: OidcPeer;
  let world: World;

  before(async () => {
    peer = await OidcPeer.start(CALLBACK, [CLIENT]);
    (await testServer()).container.rebind(SSO_TARGET_POLICY).toConstantValue(new LoopbackTargetPolicy());
    const org = await anOrganization('field-errors');
    const foreign = await anOrganization('field-errors-other');
    const pkg = await aMonitorPackage(org.token);
    const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
    const website = await aWebsite(org.token, { customerId: customer.id, url: PUBLIC_URL });
    const otherCustomer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
    const imap = await aMonitor(org.token, 'imap-pop', { customerId: customer.id, hostname: 'mail.monitor-fixture.com', protocol: 'imap' });
    world = {
      token: org.token,
      customerId: customer.id,
      otherCustomerId: otherCustomer.id,
      website,
      imap,
      issuer: peer.issuer,
      foreignToken: foreign.token,
    };
  });
  after(async () => {
    (await testServer()).container.rebind(SSO_TARGET_POLICY).toService(MONITOR_TARGET_POLICY);
    await peer.stop();
  });

  const documented = (): string[] => {
    const doc = describeApi() as { components: { schemas: Record<string, any> } };
    return doc.components.schemas.ErrorEnvelope.properties.data.properties.field['x-field-error-codes'];
  };

  it('has a provocation for each code the document lists, and no other', () => {
    expect(documented()).to.have.length.above(10);
    expect(Object.keys(PROVOCATIONS)).to.have.members(documented());
  });

  for (const code of Object.keys(PROVOCATIONS)) {
    it(`${code}: data.field points at the field`, async () => {
      const answer = await PROVOCATIONS[code]!.send(world);
      expect(answer.body?.data?.code, JSON.stringify(answer.body)).to.equal(code);
      expect(answer.body.data.field, JSON.stringify(answer.body)).to.equal(PROVOCATIONS[code]!.field);
    });
  }

  for (const { code, field, send } of IN_CONTEXT) {
    it(`${code}, where it concerns a field: data.field ${field}`, async () => {
      const answer = await send(world);
      expect(answer.body?.data, JSON.stringify(answer.body)).to.include({ code, field });
    });
  }
});
