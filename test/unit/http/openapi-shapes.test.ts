import { expect } from 'chai';
import { PER_KIND_TYPES } from '../../../src/domain/monitoring/kinds';
import { describeApi } from '../../../src/main/api-description';

/**
 * The one list shape and the one create shape (docs/decisions.md, "Requests and errors"), checked
 * on the served OpenAPI document so a new route cannot drift: every collection GET answers
 * `{items, total, page, perPage}` and takes `page`/`perPage`; every create answers 201 with the
 * record itself. The exceptions are the shapes the spec fixes, the routes that are not collections
 * or creates, and the areas whose owners align them separately (status pages, data export).
 */
interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
}
interface Operation {
  parameters?: Array<{ name: string; in: string }>;
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

const document = describeApi() as Document;
const resolve = (schema: Schema | undefined): Schema | undefined =>
  schema?.$ref ? document.components?.schemas?.[schema.$ref.split('/').pop()!] : schema;

/** Routes that follow another rule; each with its reason. */
/** A status page's public address, and the probe API (a protocol of calls, not collections): not the API's resources. */
const OWNED_ELSEWHERE = (path: string) => path.startsWith('/status/') || path.startsWith('/api/probe/');

/** GETs without a trailing {id} that answer one thing, not a collection. */
const SINGLE_GETS = new Set([
  '/api/auth/get-session',
  // A stream (text/event-stream), not a collection: resumed with Last-Event-ID, not paged.
  '/api/events',
  '/api/organization',
  '/api/account/deletion-request',
  '/api/platform-admin/settings',
  '/api/health',
  '/livez',
  '/readyz',
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-protected-resource',
  '/.well-known/jwks.json',
  '/auth.md',
  '/api/agent-claim/context',
  '/agent/claim',
  '/api/tools/dns-lookup',
  '/api/tools/ssl-certificate',
  '/api/tools/port-check',
  '/api/tools/dnsbl-lookup',
  '/api/tools/domain-expiry',
  '/api/websites/{id}/uptime-stats',
  '/api/websites/{id}/response-times',
  ...PER_KIND_TYPES.flatMap((type) => [`/api/monitors/${type}/{id}/uptime-stats`, `/api/monitors/${type}/{id}/response-times`]),
  '/api/branding',
  // The web app manifest; a person's push devices are few (a list and the VAPID key, not paged).
  '/api/branding/manifest.webmanifest',
  '/api/me/push-subscriptions',
  // Single sign-on: the organization's one provider, and the sign-in's redirects.
  '/api/organization/sso',
  '/api/auth/sso/start',
  '/api/auth/sso/callback',
  '/api/service-levels/{id}/status',
  '/api/customers/sms-usage',
  '/api/organization/smtp',
  '/api/im/schedules/{id}/on-call',
  '/api/im/on-call',
  '/internal/tls-ask',
  '/api/organization/report-runs/{id}/pdf',
  '/api/organization/quota-tier',
  '/api/billing',
  '/api/billing/mandate/return',
  '/api/admin/usage',
  '/api/users/{id}/deletion-request',
  '/api/organization/data-export/download',
  '/api/audit-log/{id}',
]);
/** The spec fixes GET /api/customers as a bare array of Customer. */
const SPEC_FIXED_LISTS = new Set(['/api/customers']);

/** POSTs that make a resource. Every other POST is an action (sign-in, acknowledge, test, verify...). */
const CREATES = [
  '/api/users',
  '/api/service-levels',
  '/api/organization/tokens',
  '/api/customer/tokens',
  '/api/incidents',
  '/api/invitations',
  '/api/maintenance-windows',
  '/api/package-configs',
  '/api/custom-fields',
  '/api/customers/{id}/domains',
  '/api/customers/{id}/ips',
  '/api/websites',
  '/api/websites/{id}/change-requests',
  '/api/tags',
  '/api/notification-channels',
  '/api/im/teams',
  '/api/im/schedules',
  '/api/escalation-config',
  '/api/custom-domains',
  '/api/im/incidents',
  '/api/im/sources',
  '/api/im/contact-methods',
  '/api/me/push-subscriptions',
  '/api/organization/reports',
  '/api/customers',
  '/api/status-pages',
  '/api/status-pages/{id}/incidents',
  '/api/status-pages/{id}/incidents/{incidentId}/updates',
  '/api/status-pages/{id}/subscribers',
  '/api/locations',
  '/api/locations/{code}/keys',
  '/api/admin/locations',
  '/api/admin/locations/{code}/keys',
  ...PER_KIND_TYPES.flatMap((type) => [`/api/monitors/${type}`, `/api/monitors/${type}/{id}/change-requests`]),
];
/**
 * Creates whose status the spec fixes at 200 (its table of known shapes answers 200), and POST
 * /api/customers whose body is `{success, customer}`.
 */
const SPEC_FIXED_CREATES: Record<string, { status: string; wrapped?: boolean }> = {
  '/api/customers': { status: '200', wrapped: true },
  '/api/customers/{id}/domains': { status: '200' },
  '/api/custom-fields': { status: '200' },
};

describe('OpenAPI list and create shapes', () => {
  const gets = Object.entries(document.paths).filter(
    ([path, item]) => item.get && !OWNED_ELSEWHERE(path) && !path.endsWith('}') && !SINGLE_GETS.has(path) && !SPEC_FIXED_LISTS.has(path),
  );

  it('answers every collection GET with the paged shape and takes page and perPage', () => {
    expect(gets.length).to.be.greaterThan(30);
    const offenders = gets
      .filter(([, item]) => {
        const operation = item.get!;
        const schema = resolve(operation.responses?.['200']?.content?.['application/json']?.schema);
        const keys = Object.keys(schema?.properties ?? {}).sort();
        const params = new Set((operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
        return keys.join(',') !== 'items,page,perPage,total' || !params.has('page') || !params.has('perPage');
      })
      .map(([path]) => path);
    expect(offenders, 'collection GETs not paged (or listed as single in this test)').to.deep.equal([]);
  });

  it('keeps GET /api/customers the bare array the spec fixes', () => {
    const schema = resolve(document.paths['/api/customers']!.get!.responses?.['200']?.content?.['application/json']?.schema);
    expect(schema?.type).to.equal('array');
  });

  it('answers every create with 201 and the record at the top level (spec-fixed creates excepted)', () => {
    const offenders: string[] = [];
    for (const path of CREATES) {
      const operation = document.paths[path]?.post;
      expect(operation, `POST ${path} is documented`).to.not.equal(undefined);
      const fixed = SPEC_FIXED_CREATES[path];
      const status = fixed?.status ?? '201';
      const schema = resolve(operation!.responses?.[status]?.content?.['application/json']?.schema);
      const keys = Object.keys(schema?.properties ?? {});
      const wrapped = keys.length <= 3 && keys.some((key) => resolve(schema!.properties![key])?.type === 'object');
      if (!schema || schema.type !== 'object' || !keys.includes('id') !== Boolean(fixed?.wrapped) || (!fixed?.wrapped && wrapped)) {
        offenders.push(`POST ${path}`);
      }
    }
    expect(offenders, 'creates not answering 201 + record').to.deep.equal([]);
  });

  it('lists every POST that is not a create as an action, so a new create is not missed', () => {
    const ACTIONS =
      /\/(data-export|trigger-check|sign-up\/email|sign-in\/email|verify-totp|sign-out|enable|disable|reset|validate|deletion-request|identity|claim|notify|token|revoke|confirm|consent|rotate|acknowledge|resolve|preview-occurrences|batch|uptime-bars|bulk|overrides|calendar-feed|verify|activate|status|snooze|escalate|responders|merge|retry|events|test-alert|run|mandate|reconcile|discount|deactivate|reactivate|test|send-alert|monitor-tags|quota-tier|mcp|updates|backchannel-logout\/\{organizationId\}|\{token\})$/;
    const unknown = Object.entries(document.paths)
      .filter(([path, item]) => item.post && !OWNED_ELSEWHERE(path) && !CREATES.includes(path) && !ACTIONS.test(path))
      .map(([path]) => path);
    expect(unknown, 'POSTs neither listed as creates nor matching an action').to.deep.equal([]);
  });
});
