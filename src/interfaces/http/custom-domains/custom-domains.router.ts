import { z } from 'zod';
import { AppError } from '../../../domain/shared/app-error';
import { hostnameOfHostHeader } from '../../../domain/custom-domains/hostname';
import { ActiveHosts } from '../../../application/custom-domains/active-hosts';
import { AddCustomDomain } from '../../../application/custom-domains/add-custom-domain';
import { ListCustomDomains } from '../../../application/custom-domains/list-custom-domains';
import { GetCustomDomain } from '../../../application/custom-domains/get-custom-domain';
import { RemoveCustomDomain } from '../../../application/custom-domains/remove-custom-domain';
import { VerifyCustomDomain } from '../../../application/custom-domains/verify-custom-domain';
import { ActivateCustomDomain } from '../../../application/custom-domains/activate-custom-domain';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { CreateCustomDomainBody, CustomDomainSchema, IdParams, TlsAskQuery } from './schemas';
import { presentCustomDomain } from './presenters';
import { withPageStatus } from '../status-pages/page-not-found';
import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';

const tags = ['Custom domains'] as const;
const SCOPE =
  'Entries of another organization, of another customer for a customer-scoped caller, and pending entries ' +
  'older than 7 days answer 404 customDomainNotFound.';
const ROLES =
  'White-label entries: organization admins; status page entries: admins and editors, customer-scoped ones ' +
  "for their own customer's pages (else 403 roleForbidden).";
const PROOF =
  "Ownership is proved by a TXT record at `_monitoring-verify.<hostname>` holding the entry's verification " +
  "value, looked up through the service's resolvers; when it is missing or differs, 422 customDomainVerificationFailed " +
  'says where and what to publish (data.recordName, data.expectedValue, data.reason). A hostname verified or active in ' +
  'another organization answers 409 domainAlreadyClaimed: exactly one organization can hold it, even when several verify at once.';

/** Custom domains: white-label hosts and status page hosts, proved by DNS and then routed by Host. */
export const customDomainsRouter = defineRouter(
  {
    listCustomDomains: ListCustomDomains,
    addCustomDomain: AddCustomDomain,
    getCustomDomain: GetCustomDomain,
    removeCustomDomain: RemoveCustomDomain,
    verifyCustomDomain: VerifyCustomDomain,
    activateCustomDomain: ActivateCustomDomain,
    activeHosts: ActiveHosts,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'listCustomDomains',
        method: 'get',
        path: '/api/custom-domains',
        tags,
        summary: 'List custom domains',
        description:
          'Ordered by hostname. Pending entries older than 7 days are gone. Customer-scoped callers see the entries ' +
          "of their customer's status pages.",
        query: PageOnlyQuery,
        response: pagedSchema(CustomDomainSchema, 'CustomDomainPage'),
        handler: async ({ actor, query }) => pageOf((await use.listCustomDomains.execute(actor)).map(presentCustomDomain), query),
      })
      .route({
        operationId: 'createCustomDomain',
        method: 'post',
        path: '/api/custom-domains',
        tags,
        summary: 'Add a custom domain',
        description:
          'Adds a pending entry and answers the TXT record to publish. Point the hostname at the service too (a ' +
          'CNAME to the platform host, or your proxy), then verify and activate. A pending entry blocks nobody and is dropped ' +
          'after 7 days; an organization has one entry per hostname (409 customDomainExists). A hostname another organization ' +
          `holds answers 409 domainAlreadyClaimed. statusPageId takes the page's id (uuid or legacy integer); an id that names no page in ` +
          `the caller's scope (malformed, missing, or another organization's) answers 400 statusPageNotFound, ` +
          `data.reason \`unknownStatusPageId\`, the same answer whichever it is. ${ROLES}`,
        body: CreateCustomDomainBody,
        response: CustomDomainSchema,
        status: 201,
        errors: [
          'invalidHostname',
          'hostnameReserved',
          'domainAlreadyClaimed',
          'customDomainExists',
          'statusPageNotFound',
          'roleForbidden',
        ],
        // statusPageNotFound is the status pages' "400 or 404" (data.reason says why it is the caller's mistake).
        handler: async ({ actor, body, req, res }) =>
          withPageStatus(req, res, async () => presentCustomDomain(await use.addCustomDomain.execute(actor, body))),
      })
      .route({
        operationId: 'getCustomDomain',
        method: 'get',
        path: '/api/custom-domains/{id}',
        tags,
        summary: 'Get a custom domain',
        description: SCOPE,
        params: IdParams,
        response: CustomDomainSchema,
        errors: ['customDomainNotFound'],
        handler: async ({ actor, params }) => presentCustomDomain(await use.getCustomDomain.execute(actor, params)),
      })
      .route({
        operationId: 'deleteCustomDomain',
        method: 'delete',
        path: '/api/custom-domains/{id}',
        tags,
        summary: 'Remove a custom domain',
        description:
          `In any state. Requests for the host stop being routed (within seconds on every instance) and the hostname ` +
          `is free to claim. ${ROLES} ${SCOPE}`,
        params: IdParams,
        response: z.object({ success: z.literal(true), id: z.uuid() }),
        errors: ['customDomainNotFound', 'roleForbidden'],
        handler: async ({ actor, params }) => ({
          success: true as const,
          id: (await use.removeCustomDomain.execute(actor, params)).publicId,
        }),
      })
      .route({
        operationId: 'verifyCustomDomain',
        method: 'post',
        path: '/api/custom-domains/{id}/verify',
        tags,
        summary: 'Verify a custom domain',
        description:
          `pending -> verified: the hostname is now held by the organization. Verified and active entries answer as ` +
          `they are. ${PROOF} ${ROLES} ${SCOPE}`,
        params: IdParams,
        response: CustomDomainSchema,
        errors: ['customDomainNotFound', 'customDomainVerificationFailed', 'domainAlreadyClaimed', 'roleForbidden', 'conflict'],
        handler: async ({ actor, params }) => presentCustomDomain(await use.verifyCustomDomain.execute(actor, params)),
      })
      .route({
        operationId: 'activateCustomDomain',
        method: 'post',
        path: '/api/custom-domains/{id}/activate',
        tags,
        summary: 'Activate a custom domain',
        description:
          "verified -> active: requests whose Host is the hostname are served as the organization's (white-label) or " +
          'as the status page at `/` (with `/index.json`, `/feed.atom`, `/badge.svg`, `/login`, `/subscribe`, `/confirm` and ' +
          "`/unsubscribe` beside it, and links in messages to the page's subscribers pointing at `https://<hostname>`); agent and " +
          'discovery endpoints answer 404 there. A pending entry is verified on the way. ' +
          `Active entries answer as they are. ${PROOF} ${ROLES} ${SCOPE}`,
        params: IdParams,
        response: CustomDomainSchema,
        errors: ['customDomainNotFound', 'customDomainVerificationFailed', 'domainAlreadyClaimed', 'roleForbidden', 'conflict'],
        handler: async ({ actor, params }) => presentCustomDomain(await use.activateCustomDomain.execute(actor, params)),
      })
      .public({
        operationId: 'askCustomDomainTls',
        method: 'get',
        path: '/internal/tls-ask',
        tags,
        summary: 'May a certificate be issued for this host (on-demand TLS)',
        description:
          "For a TLS-terminating proxy that obtains certificates on demand (Caddy's `on_demand_tls { ask }`): 200 " +
          'when the hostname is an active custom domain, else 404 customDomainNotFound, so certificates are only requested ' +
          'for hosts the service serves. No authentication.',
        query: TlsAskQuery,
        response: z.object({ hostname: z.string() }),
        errors: ['customDomainNotFound'],
        handler: async ({ query }) => {
          const hostname = hostnameOfHostHeader(query.domain);
          const host = hostname ? await use.activeHosts.find(hostname) : null;
          if (!host) throw new AppError('customDomainNotFound');
          return { hostname: host.hostname };
        },
      }).router;
  },
);
