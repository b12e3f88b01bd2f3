import { randomBytes } from 'node:crypto';
import { api, type ApiResponse } from './http-client';
import { anOrganization } from './builders';
import { aCallerSet, aCustomer, type CallerSet } from './callers';
import { aMember, anOrgToken, PASSWORD } from './identity-fixtures';
import { aDomain, anIp, aCustomField, aPackage } from './tenancy-fixtures';
import { aMonitor, aMonitorPackage, aTag, aWebsite, kindSample } from './monitoring-fixtures';
import { PER_KIND_TYPES } from '../../src/domain/monitoring/kinds';
import { aGlobalSupporter, setIncidentManagement } from './im-fixtures';
import { anAccessToken, anAnonymousAgent, approvedClient } from './agent-fixtures';
import { testClock } from './test-clock';
import { aSolidPng } from './reports-fixtures';

/**
 * The world the tenancy matrix runs in, built through the API: organization A with a caller of every
 * class and one record of every kind a path names (customer-owned records belong to the customer the
 * customer-scoped callers are bound to), organization B (its admin is the stranger) with records of its
 * own, and a platform supporter who belongs to a third organization.
 */

export const CALLERS = [
  'anonymous',
  'admin',
  'editor',
  'readonly',
  'responder',
  'orgToken',
  'customerToken',
  'customerUser',
  'agentPublic',
  'agentRead',
  'agentWrite',
  'stranger',
  'supporter',
] as const;
export type CallerClass = (typeof CALLERS)[number];

const suffix = () => randomBytes(3).toString('hex');
const soon = (minutes: number) => new Date(testClock.now().getTime() + minutes * 60_000).toISOString();

/** A request the world needs: fails the setup (with the answer) unless it succeeded. */
export async function must(method: string, path: string, token: string | undefined, body?: unknown): Promise<any> {
  const response: ApiResponse = await api(method, path, { token, body });
  if (response.status < 200 || response.status > 299) {
    throw new Error(`world setup: ${method} ${path} answered ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body;
}

export interface Sample {
  body?: unknown;
  query?: Record<string, string>;
  form?: Record<string, string>;
  raw?: { text: string; contentType: string };
}

export interface MatrixWorld {
  set: CallerSet;
  tokens: Record<CallerClass, string | undefined>;
  /** Path parameter values by key (see paramKey in the matrix test): organization A's records. */
  ids: Record<string, string>;
  /** Makes a new record for a destructive operation and answers its path parameters (keyed like `ids`). */
  fresh: Record<string, () => Promise<Record<string, string>>>;
  /** Request bodies and queries that are valid for organization A's records. */
  samples: Record<string, Sample>;
}

export async function buildWorld(): Promise<MatrixWorld> {
  const set = await aCallerSet();
  const admin = set.admin;
  const customerId = set.customer.id;
  await setIncidentManagement(set.organizationId, true);
  const [agentPublic, agentRead, agentWrite, supporter] = await Promise.all([
    anAnonymousAgent().then((agent) => anAccessToken(agent.identity_assertion)),
    approvedClient(set.org, `matrix-read-${suffix()}`, 'api.read').then((client) => client.token),
    approvedClient(set.org, `matrix-write-${suffix()}`, 'api.read api.write.monitors api.write.incidents').then((client) => client.token),
    anOrganization('supporter').then((org) => aGlobalSupporter(org)),
  ]);
  const tokens: Record<CallerClass, string | undefined> = {
    anonymous: undefined,
    admin,
    editor: set.editor,
    readonly: set.readonly,
    responder: set.responder,
    orgToken: set.orgToken,
    customerToken: set.customerToken,
    customerUser: set.customerUser,
    agentPublic,
    agentRead,
    agentWrite,
    stranger: set.stranger,
    supporter,
  };

  // Organization B: records of its own, so its admin sees a populated tenant rather than an empty one.
  const strangerOrganization = (await must('GET', '/api/organization', set.stranger)).id as number;
  await setIncidentManagement(strangerOrganization, true);
  const strangerCustomer = await aCustomer(set.stranger, { name: 'Stranger customer' });
  await aWebsite(set.stranger, { customerId: strangerCustomer.id });
  await aTag(set.stranger, {});

  // A payment mandate exists in every organization an administrator calls from before the operations
  // run: reconciling it must not race its creation (the plain operations run six at a time).
  await Promise.all([admin, set.stranger, supporter].map((caller) => must('POST', '/api/billing/mandate', caller)));

  // Room for the fresh monitors the destructive operations need (the default package stops at 50).
  const roomy = await aMonitorPackage(admin, { quotaTiers: [{ monitorLimit: 1000, priceMonthly: 0 }] });
  await must('PATCH', `/api/customers/${set.customer.publicId}`, admin, { packageId: roomy.id });
  const website = await aWebsite(admin, { customerId });
  const monitorOf = (type: string, body: Record<string, unknown>) => aMonitor(admin, type, { customerId, ...body });
  const monitors = Object.fromEntries(
    await Promise.all(PER_KIND_TYPES.map(async (type) => [type, await monitorOf(type, kindSample(type))] as const)),
  );

  const heartbeat = await aWebsite(admin, { customerId, monitoringType: 'heartbeat', url: undefined });
  const tag = await aTag(admin, { customerId });
  const pkg = await aPackage(admin);
  const field = await aCustomField(admin);
  const domain = await aDomain(admin, customerId);
  const ip = await anIp(admin, customerId);
  const target = await aMember(set.org, 'editor');
  const invitation = await anInvitation(admin);
  const orgTokenRow = (await must('GET', '/api/organization/tokens', admin)).items as Array<{ id: string | number }>;
  const customerTokens = (await must('GET', '/api/customer/tokens', admin)).items as Array<{ id: string | number }>;
  const incident = await must('POST', '/api/incidents', admin, { monitorId: website.publicId, title: 'Matrix incident' });
  const window = await must('POST', '/api/maintenance-windows', admin, maintenanceBody(customerId));
  const objective = await must('POST', '/api/service-levels', admin, objectiveBody(website.publicId));
  const changeRequest = await must('POST', `/api/websites/${website.publicId}/change-requests`, set.customerUser, {
    changes: { name: 'Renamed' },
  });
  const channel = await must('POST', '/api/notification-channels', admin, channelBody(customerId));
  const page = await must('POST', '/api/status-pages', admin, {
    title: 'Matrix status',
    slug: `matrix-${suffix()}`,
    customerId: String(customerId),
  });
  const pageIncident = await must('POST', `/api/status-pages/${page.id}/incidents`, admin, {
    title: 'Degraded',
    message: 'Looking into it',
  });
  const subscriber = await must('POST', `/api/status-pages/${page.id}/subscribers`, admin, {
    channel: 'email',
    email: `sub-${suffix()}@example.com`,
  });
  const responderId = (await must('GET', '/api/auth/get-session', set.responder)).user.id as string;
  const team = await must('POST', '/api/im/teams', admin, {
    name: `Team ${suffix()}`,
    members: [{ userId: set.org.user.id, imRole: 'admin' }, { userId: responderId }],
  });
  const schedule = await must('POST', '/api/im/schedules', admin, scheduleBody(team.id, set.org.user.id));
  const override = await must('POST', `/api/im/schedules/${schedule.id}/overrides`, admin, {
    userId: set.org.user.id,
    start: soon(60),
    end: soon(120),
  });
  const calendar = await must('POST', `/api/im/schedules/${schedule.id}/calendar-feed`, admin);
  const policy = await must('POST', '/api/escalation-config', admin, {
    name: `Policy ${suffix()}`,
    levels: [{ delayMinutes: 5, targets: [{ type: 'team', id: team.id }] }],
  });
  const imIncident = await must('POST', '/api/im/incidents', admin, { title: 'Matrix IM incident', teamId: team.id });
  const source = await must('POST', '/api/im/sources', admin, { name: `Source ${suffix()}`, kind: 'generic', teamId: team.id });
  const customDomain = await must('POST', '/api/custom-domains', admin, { hostname: `status-${suffix()}.example.com`, kind: 'whiteLabel' });
  const location = await must('POST', '/api/locations', admin, { code: `matrix-${suffix()}`, name: 'Matrix office' });
  const probeKey = await must('POST', `/api/locations/${location.code}/keys`, admin, { name: 'matrix' });
  const report = await must('POST', '/api/organization/reports', admin, {
    name: `Report ${suffix()}`,
    frequency: 'weekly',
    weekday: 1,
    timeOfDay: '06:00',
  });
  const exportJob = await must('POST', '/api/organization/data-export', admin, {});
  const reportRun = await must('POST', `/api/organization/reports/${report.id}/run`, admin);
  const contactMethod = await must('POST', '/api/im/contact-methods', admin, contactMethodBody());

  const ids: Record<string, string> = {
    users: target.id,
    organizations: String(set.organizationId),
    organizationId: String(set.organizationId),
    'platform-admin/organizations': String(set.organizationId),
    'organization/tokens': String(orgTokenRow[0]!.id),
    'customer/tokens': String(customerTokens[0]!.id),
    incidents: String(incident.id),
    websites: website.publicId,
    websiteId: website.publicId,
    screenshotId: '00000000-0000-4000-8000-000000000001',
    'maintenance-windows': String(window.id),
    'service-levels': String(objective.id),
    customers: set.customer.publicId,
    'package-configs': String(pkg.id),
    'custom-fields': String(field.id),
    'customer-domains': String(domain.id),
    'customer-ips': String(ip.id),
    tags: String(tag.id ?? tag.publicId),
    'change-requests': String(changeRequest.id),
    heartbeats: String(heartbeat.heartbeatToken ?? heartbeat.token ?? ''),
    'notification-channels': String(channel.publicId ?? channel.id),
    'im/teams': String(team.id),
    userId: responderId,
    'im/schedules': String(schedule.id),
    overrideId: String(override.override.id),
    'im/calendar': calendarToken(calendar),
    'escalation-config': String(policy.id),
    'custom-domains': String(customDomain.id),
    code: String(location.code),
    keyId: String(probeKey.id),
    'status-pages': String(page.id),
    incidentId: String(pageIncident.id),
    subscriberId: String(subscriber.id),
    slug: page.slug,
    'public/status-pages': page.slug,
    status: page.slug,
    'organization/data-export': String(exportJob.id),
    'im/incidents': String(imIncident.id),
    // A push grant names its incident; the matrix holds none (the grant is the credential), so these answer on the body.
    'push/incidents': String(incident.id),
    'push/im-incidents': String(imIncident.id),
    // Subscriptions are the person's own: a stranger's id is not found for anyone else.
    'me/push-subscriptions': '00000000-0000-4000-8000-000000000003',
    'im/outbound': '00000000-0000-4000-8000-000000000002',
    'im/sources': String(source.id),
    'im/ingest': String(source.token),
    'organization/reports': String(report.id),
    'organization/report-runs': String(reportRun.id),
    clientId: 'matrix-unknown-client',
    customerId: set.customer.publicId,
    monitorId: website.publicId,
    'im/contact-methods': String(contactMethod.id),
    'admin/organizations': String(set.organizationId),
    'admin/users': target.id,
    invitations: invitation.id,
    'invitations/accept': invitation.token,
  };
  for (const [kind, monitor] of Object.entries(monitors)) ids[`monitors/${kind}`] = String(monitor.publicId ?? monitor.id);

  return {
    set,
    tokens,
    ids,
    fresh: freshFactories(set, { team, page, schedule, website, tagId: ids.tags!, responderId, target }),
    samples: samplesFor(set, ids, { website, tag, team, target }),
  };
}

function calendarToken(issued: Record<string, any>): string {
  if (typeof issued.token === 'string') return issued.token;
  const url = String(issued.url ?? '');
  return url.split('/').pop() ?? '';
}

const contactMethodBody = () => ({ type: 'sms', address: `+1555${String(Date.now() % 10_000_000).padStart(7, '0')}` });
const objectiveBody = (websiteId: string) => ({ name: 'Matrix objective', target: 99.9, subject: { type: 'website', websiteId } });

const maintenanceBody = (customerId: number) => ({
  title: 'Matrix window',
  startTime: soon(60),
  endTime: soon(120),
  targets: [{ type: 'customer', id: String(customerId) }],
});
const channelBody = (customerId: number) => ({
  name: `Channel ${suffix()}`,
  type: 'webhook',
  config: { url: `https://hooks.example.com/matrix-${suffix()}` },
  customerId,
});
const scheduleBody = (teamId: string, userId: string) => ({
  teamId,
  name: `Schedule ${suffix()}`,
  timezone: 'Europe/Berlin',
  layers: [{ name: 'Days', rotationType: 'daily', startsAt: '2026-03-20T09:00:00+01:00', users: [userId] }],
});

/** New records for the destructive operations, keyed by operation (`DELETE /api/tags/{id}`). */
function freshFactories(
  set: CallerSet,
  records: {
    team: any;
    page: any;
    schedule: any;
    website: Record<string, any>;
    tagId: string;
    responderId: string;
    target: { id: string };
  },
): Record<string, () => Promise<Record<string, string>>> {
  const admin = set.admin;
  const { team, page, schedule } = records;
  const customerId = set.customer.id;
  const one = (key: string, make: () => Promise<string | number>) => async () => ({ [key]: String(await make()) });
  const factories: Record<string, () => Promise<Record<string, string>>> = {
    'DELETE /api/users/{id}': one('users', async () => (await aMember(set.org, 'editor')).id),
    'DELETE /api/invitations/{id}': one('invitations', async () => (await anInvitation(admin)).id),
    'DELETE /api/organization/tokens/{id}': async () => {
      const name = `fresh ${suffix()}`;
      await anOrgToken(admin, { name });
      const rows = (await must('GET', '/api/organization/tokens', admin)).items as Array<{ id: string; name: string }>;
      return { 'organization/tokens': String(rows.find((row) => row.name === name)!.id) };
    },
    'DELETE /api/customer/tokens/{id}': async () => {
      const name = `fresh ${suffix()}`;
      await must('POST', '/api/customer/tokens', admin, { name, expiresInDays: 30, customerId });
      const rows = (await must('GET', '/api/customer/tokens', admin)).items as Array<{ id: string; name: string }>;
      return { 'customer/tokens': String(rows.find((row) => row.name === name)!.id) };
    },
    'DELETE /api/incidents/{id}': one('incidents', async () => {
      const site = await aWebsite(admin, { customerId });
      return (await must('POST', '/api/incidents', admin, { monitorId: site.publicId, title: 'Fresh' })).id;
    }),
    'DELETE /api/service-levels/{id}': one(
      'service-levels',
      async () => (await must('POST', '/api/service-levels', admin, objectiveBody(records.website.publicId))).id,
    ),
    'DELETE /api/maintenance-windows/{id}': one(
      'maintenance-windows',
      async () => (await must('POST', '/api/maintenance-windows', admin, maintenanceBody(customerId))).id,
    ),
    'DELETE /api/customers/{id}': one('customers', async () => (await aCustomer(admin, { name: `Fresh ${suffix()}` })).publicId),
    'DELETE /api/package-configs/{id}': one('package-configs', async () => (await aPackage(admin)).id),
    'DELETE /api/custom-fields/{id}': one('custom-fields', async () => (await aCustomField(admin)).id),
    'DELETE /api/customer-domains/{id}': one('customer-domains', async () => (await aDomain(admin, customerId)).id),
    'DELETE /api/customer-ips/{id}': one('customer-ips', async () => (await anIp(admin, customerId)).id),
    'DELETE /api/websites/{id}': one('websites', async () => (await aWebsite(admin, { customerId })).publicId),
    'DELETE /api/im/contact-methods/{id}': one(
      'im/contact-methods',
      async () => (await must('POST', '/api/im/contact-methods', admin, contactMethodBody())).id,
    ),
    'DELETE /api/tags/{id}': one('tags', async () => (await aTag(admin, { customerId })).id),
    'DELETE /api/notification-channels/{id}': one('notification-channels', async () => {
      const channel = await must('POST', '/api/notification-channels', admin, channelBody(customerId));
      return channel.publicId ?? channel.id;
    }),
    'DELETE /api/status-pages/{id}': one(
      'status-pages',
      async () =>
        (await must('POST', '/api/status-pages', admin, { title: 'Fresh', slug: `fresh-${suffix()}`, customerId: String(customerId) })).id,
    ),
    'DELETE /api/custom-domains/{id}': one(
      'custom-domains',
      async () => (await must('POST', '/api/custom-domains', admin, { hostname: `fresh-${suffix()}.example.com`, kind: 'whiteLabel' })).id,
    ),
    'DELETE /api/organization/reports/{id}': one(
      'organization/reports',
      async () =>
        (
          await must('POST', '/api/organization/reports', admin, {
            name: `Fresh ${suffix()}`,
            frequency: 'weekly',
            weekday: 2,
            timeOfDay: '06:00',
          })
        ).id,
    ),
  };
  Object.assign(factories, {
    'DELETE /api/locations/{code}': one(
      'code',
      async () => (await must('POST', '/api/locations', admin, { code: `fresh-${suffix()}`, name: 'Fresh' })).code,
    ),
    'DELETE /api/locations/{code}/keys/{keyId}': async () => {
      const code = (await must('POST', '/api/locations', admin, { code: `fresh-${suffix()}`, name: 'Fresh' })).code;
      return { code: String(code), keyId: String((await must('POST', `/api/locations/${code}/keys`, admin, {})).id) };
    },
  });
  Object.assign(factories, {
    'DELETE /api/im/teams/{id}': one(
      'im/teams',
      async () => (await must('POST', '/api/im/teams', admin, { name: `Fresh ${suffix()}` })).id,
    ),
    'DELETE /api/im/teams/{id}/members/{userId}': async () => {
      await must('PUT', `/api/im/teams/${team.id}/members/${records.responderId}`, admin, { imRole: 'member' });
      return { 'im/teams': String(team.id), userId: records.responderId };
    },
    'DELETE /api/im/schedules/{id}': one(
      'im/schedules',
      async () => (await must('POST', '/api/im/schedules', admin, scheduleBody(team.id, set.org.user.id))).id,
    ),
    'DELETE /api/im/schedules/{id}/overrides/{overrideId}': async () => {
      const override = await must('POST', `/api/im/schedules/${schedule.id}/overrides`, admin, {
        userId: set.org.user.id,
        start: soon(300),
        end: soon(360),
      });
      return { 'im/schedules': String(schedule.id), overrideId: String(override.override.id) };
    },
    'DELETE /api/escalation-config/{id}': one(
      'escalation-config',
      async () =>
        (
          await must('POST', '/api/escalation-config', admin, {
            name: `Fresh ${suffix()}`,
            levels: [{ delayMinutes: 5, targets: [{ type: 'team', id: team.id }] }],
          })
        ).id,
    ),
    'DELETE /api/status-pages/{id}/subscribers/{subscriberId}': async () => {
      const subscriber = await must('POST', `/api/status-pages/${page.id}/subscribers`, admin, {
        channel: 'email',
        email: `fresh-${suffix()}@example.com`,
      });
      return { 'status-pages': String(page.id), subscriberId: String(subscriber.id) };
    },
    'DELETE /api/im/sources/{id}': one(
      'im/sources',
      async () => (await must('POST', '/api/im/sources', admin, { name: `Fresh ${suffix()}`, kind: 'generic' })).id,
    ),
    'DELETE /api/monitor-tags': async () => {
      await must('POST', '/api/monitor-tags', admin, { tagId: records.tagId, monitorId: records.website.publicId, monitorType: 'website' });
      return {};
    },
    'DELETE /api/users/{id}/deletion-request': async () => {
      await must('POST', `/api/users/${records.target.id}/deletion-request`, admin);
      return { users: records.target.id };
    },
  });

  for (const kind of PER_KIND_TYPES) {
    factories[`DELETE /api/monitors/${kind}/{id}`] = one(`monitors/${kind}`, async () => {
      const monitor = await aMonitor(admin, kind, { customerId, ...kindSample(kind) });
      return monitor.publicId ?? monitor.id;
    });
  }
  return factories;
}

/** Valid requests for the operations that take a body or a required query, keyed by operation. */
function samplesFor(
  set: CallerSet,
  ids: Record<string, string>,
  records: { website: Record<string, any>; tag: Record<string, any>; team: Record<string, any>; target: { id: string; email: string } },
): MatrixWorld['samples'] {
  const customerId = set.customer.id;
  const monitorPatch = { name: 'Matrix renamed' };
  const samples: MatrixWorld['samples'] = {
    'POST /api/auth/sign-up/email': {
      body: { name: 'Matrix', email: `matrix-${suffix()}@test.example`, password: PASSWORD, organizationName: `Matrix ${suffix()}` },
    },
    'POST /api/auth/sign-in/email': { body: { email: records.target.email, password: PASSWORD } },
    'POST /api/locations': { body: { code: `matrix-new-${suffix()}`, name: 'Matrix new' } },
    'PATCH /api/locations/{code}': { body: { name: 'Matrix renamed' } },
    'POST /api/admin/locations': { body: { code: `matrix-platform-${suffix()}`, name: 'Matrix platform' } },
    'PATCH /api/admin/locations/{code}': { body: { name: 'Matrix renamed' } },
    'POST /api/auth/two-factor/verify-totp': { body: { code: '000000' } },
    'POST /api/auth/two-factor/enable': { body: { password: 'not the password' } },
    'POST /api/auth/two-factor/disable': { body: { password: 'not the password' } },
    'POST /api/invitations': { body: { email: `matrix-invitee-${suffix()}@test.example`, role: 'readonly' } },
    'POST /api/users': {
      body: { name: 'Matrix user', email: `matrix-user-${suffix()}@test.example`, password: PASSWORD, role: 'readonly' },
    },
    'PATCH /api/users/{id}': { body: { name: 'Matrix renamed' } },
    'PATCH /api/organization': { body: { billingEmail: 'billing@matrix.example' } },
    'PATCH /api/organizations/{id}/billing': { body: { billingEmail: 'billing@matrix.example' } },
    'POST /api/organization/tokens': { body: { name: 'matrix' } },
    'PATCH /api/organization/tokens/{id}': { body: { name: 'matrix renamed' } },
    'POST /api/customer/tokens': { body: { name: 'matrix', expiresInDays: 30, customerId } },
    'PATCH /api/platform-admin/organizations/{id}': { body: { incidentManagementEnabled: true } },
    'PATCH /api/platform-admin/settings': { body: { agentAuthEnabled: true } },
    'POST /api/incidents': { body: { monitorId: records.website.publicId, title: 'Matrix' } },
    'POST /api/incidents/{id}/updates': { body: { message: 'Matrix note' } },
    'POST /api/maintenance-windows': { body: maintenanceBody(customerId) },
    'POST /api/service-levels': { body: objectiveBody(records.website.publicId) },
    'PATCH /api/service-levels/{id}': { body: { name: 'Matrix renamed' } },
    'PATCH /api/maintenance-windows/{id}': { body: { title: 'Matrix renamed' } },
    'POST /api/maintenance-windows/preview-occurrences': {
      body: { startTime: soon(60), endTime: soon(120), rrule: 'FREQ=WEEKLY;BYDAY=SA', count: 2 },
    },
    'POST /api/maintenance-windows/check/batch': { body: { websiteIds: [records.website.publicId] } },
    'POST /api/monitor-overview/uptime-bars': { body: { monitorIds: [records.website.publicId] } },
    'POST /api/customers': { body: { name: `Matrix ${suffix()}`, email: 'matrix@customer.test' } },
    'POST /api/customers/bulk': { body: { customers: [{ name: `Bulk ${suffix()}`, email: 'bulk@customer.test' }] } },
    'PATCH /api/customers/{id}': { body: { name: 'Bound Customer' } },
    'POST /api/package-configs': {
      body: { key: `matrix-${suffix()}`, displayName: 'Matrix', minCheckIntervalMinutes: 5, monitorLimit: 10 },
    },
    'PATCH /api/package-configs/{id}': { body: { description: 'Matrix' } },
    'POST /api/custom-fields': { body: { name: 'Matrix', fieldKey: `m_${suffix()}`, fieldType: 'text' } },
    'PATCH /api/custom-fields/{id}': { body: { helpText: 'Matrix' } },
    'POST /api/customers/{id}/domains': { body: { domainName: `matrix-${suffix()}.example.com` } },
    'PATCH /api/customer-domains/{id}': { body: { label: 'Matrix' } },
    'POST /api/customers/{id}/ips': { body: { ipAddress: '198.18.250.1' } },
    'PATCH /api/customer-ips/{id}': { body: { label: 'Matrix' } },
    'POST /api/websites': { body: { customerId, url: 'https://www.monitor-fixture.com/matrix' } },
    'PATCH /api/websites/{id}': { body: monitorPatch },
    'PATCH /api/websites/{websiteId}/check-config': { body: { checkSslEnabled: true } },
    'POST /api/websites/{id}/change-requests': { body: { changes: { name: 'Proposed' } } },
    'POST /api/tags': { body: { name: `matrix-${suffix()}`, color: '#3B82F6', customerId } },
    'PATCH /api/tags/{id}': { body: { color: '#10B981' } },
    'POST /api/monitor-tags': { body: { tagId: ids.tags, monitorId: records.website.publicId, monitorType: 'website' } },
    'DELETE /api/monitor-tags': { body: { tagId: ids.tags, monitorId: records.website.publicId, monitorType: 'website' } },
    'PATCH /api/change-requests/{id}': { body: { status: 'rejected' } },
    'POST /api/notification-channels': { body: channelBody(customerId) },
    'PATCH /api/notification-channels/{id}': { body: { name: 'Matrix renamed' } },
    'PATCH /api/organization/smtp': { body: { host: 'smtp.example.com', fromAddress: 'alerts@example.com' } },
    'PUT /api/organization/sso': {
      body: {
        issuer: 'https://login.example.com',
        clientId: 'matrix',
        clientSecret: 'matrix-secret',
        allowedDomains: [`matrix-${suffix()}.example.com`],
        defaultRole: 'readonly',
      },
    },
    'POST /api/notifications/send-alert': { body: { title: 'Matrix alert', customerId } },
    'POST /api/im/teams': { body: { name: `Matrix ${suffix()}` } },
    'PATCH /api/im/teams/{id}': { body: { description: 'Matrix' } },
    'PUT /api/im/teams/{id}/members/{userId}': { body: { imRole: 'member' } },
    'POST /api/im/schedules': { body: scheduleBody(records.team.id, set.org.user.id) },
    'PATCH /api/im/schedules/{id}': { body: { description: 'Matrix' } },
    'POST /api/im/schedules/{id}/overrides': { body: { userId: set.org.user.id, start: soon(200), end: soon(260) } },
    'POST /api/escalation-config': {
      body: { name: `Matrix ${suffix()}`, levels: [{ delayMinutes: 5, targets: [{ type: 'team', id: records.team.id }] }] },
    },
    'PATCH /api/escalation-config/{id}': { body: { description: 'Matrix' } },
    'POST /api/custom-domains': { body: { hostname: `matrix-${suffix()}.example.com`, kind: 'whiteLabel' } },
    'POST /api/status-pages': { body: { title: 'Matrix', slug: `matrix-${suffix()}`, customerId: String(customerId) } },
    'PATCH /api/status-pages/{id}': { body: { description: 'Matrix' } },
    'POST /api/status-pages/{id}/incidents': { body: { title: 'Matrix', message: 'Matrix' } },
    'POST /api/status-pages/{id}/incidents/{incidentId}/updates': { body: { status: 'monitoring', message: 'Matrix' } },
    'POST /api/status-pages/{id}/subscribers': { body: { channel: 'email', email: `matrix-${suffix()}@example.com` } },
    'POST /api/organization/data-export': { body: {} },
    'PUT /api/im/routing/customers/{customerId}': { body: { enabled: false } },
    'PUT /api/im/routing/monitors/{monitorId}': { body: { override: null } },
    'POST /api/im/contact-methods': { body: contactMethodBody() },
    'PATCH /api/im/contact-methods/{id}': { body: { enabled: true } },
    'PATCH /api/organization/quota-tier': { body: { autoQuotaUpgrade: false } },
    'POST /api/organization/quota-tier': { body: { autoQuotaUpgrade: false } },
    'GET /api/billing/mandate/return': { query: { mandateId: 'matrix-unknown-mandate' } },
    'POST /api/billing/discount': { body: { code: 'MATRIX-UNKNOWN' } },
    'PUT /api/custom-pricing/{customerId}': { body: { priceMonthly: 49, currency: 'EUR' } },
    'POST /api/im/incidents': { body: { title: 'Matrix', teamId: records.team.id } },
    'POST /api/im/incidents/bulk': { body: { action: 'acknowledge', incidentIds: [ids['im/incidents']] } },
    'POST /api/im/incidents/{id}/status': { body: { status: 'acknowledged' } },
    'POST /api/im/incidents/{id}/snooze': { body: { snoozedUntil: soon(30) } },
    'POST /api/im/incidents/{id}/responders': { body: { userId: set.org.user.id } },
    'POST /api/im/incidents/{id}/merge': { body: { sourceIncidentIds: [ids['im/incidents']] } },
    'POST /api/im/events': {
      body: { routing_key: ids['im/ingest'], event_action: 'trigger', payload: { summary: 'Matrix', source: 'matrix', severity: 'info' } },
    },
    'POST /api/im/sources': { body: { name: `Matrix ${suffix()}`, kind: 'generic' } },
    'PATCH /api/im/sources/{id}': { body: { name: 'Matrix renamed' } },
    'POST /api/organization/reports': { body: { name: `Matrix ${suffix()}`, frequency: 'weekly', weekday: 1, timeOfDay: '06:00' } },
    'PATCH /api/organization/reports/{id}': { body: { name: 'Matrix renamed' } },
    'GET /api/maintenance-windows': { query: { websiteId: records.website.publicId } },
    'GET /api/tools/dns-lookup': { query: { domain: 'monitor-fixture.com' } },
    'GET /api/tools/ssl-certificate': { query: { host: 'www.monitor-fixture.com' } },
    'GET /api/tools/port-check': { query: { host: 'monitor-fixture.com', port: '443' } },
    'GET /api/tools/dnsbl-lookup': { query: { ip: '93.184.216.34' } },
    'GET /internal/tls-ask': { query: { domain: 'status.matrix.example' } },
    'POST /status/{slug}/subscribe': { body: { email: `matrix-${suffix()}@example.com` } },
    'GET /status/{slug}/confirm': { query: { token: 'not-a-token' } },
    'GET /status/{slug}/unsubscribe': { query: { token: 'not-a-token' } },
    'POST /status/{slug}/unsubscribe': { query: { token: 'not-a-token' } },
    'GET /api/organization/data-export/download': { query: { exportId: ids['organization/data-export']!, token: 'wsx_not-the-token' } },
    'POST /api/im/ingest/{token}': { body: { title: 'Matrix alert', status: 'firing' } },
    'PUT /api/organization/report-logo': { body: { image: aSolidPng(110, 50, '#0a3069').toString('base64') } },
    'POST /agent/identity': { body: { type: 'anonymous' } },
    'POST /agent/identity/claim': { body: { claim_token: 'clm_not-a-claim' } },
    'POST /agent/event/notify': { raw: { text: 'not-a-jwt', contentType: 'application/secevent+jwt' } },
    'POST /oauth2/token': { form: { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: 'not-a-jwt' } },
    'POST /oauth2/revoke': { form: { token: 'wsma_not-a-token', token_type_hint: 'access_token' } },
    'GET /api/agent-claim/context': { query: { user_code: 'NOTACODE' } },
    'POST /api/agent-claim/confirm': { body: { user_code: 'NOTACODE' } },
    'POST /api/oauth/consent': { body: { consent_code: 'not-a-code', accept: false } },
    'GET /api/tools/domain-expiry': { query: { domain: 'monitor-fixture.com' } },
  };
  for (const kind of PER_KIND_TYPES) {
    samples[`PATCH /api/monitors/${kind}/{id}`] = { body: monitorPatch };
    samples[`POST /api/monitors/${kind}/{id}/change-requests`] = { body: { changes: { name: 'Proposed' } } };
  }

  for (const kind of PER_KIND_TYPES) samples[`POST /api/monitors/${kind}`] = { body: { customerId, ...kindSample(kind) } };
  return samples;
}

/** A pending invitation of the admin's organization: its id and the token of its link. */
async function anInvitation(admin: string): Promise<{ id: string; token: string }> {
  const created = await must('POST', '/api/invitations', admin, { email: `matrix-invited-${suffix()}@test.example`, role: 'readonly' });
  return { id: String(created.id), token: decodeURIComponent(String(created.acceptUrl).split('/app/invitations/')[1]) };
}
