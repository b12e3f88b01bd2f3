import { AddCustomerDomain } from '../../../application/tenancy/add-customer-domain';
import { ListCustomerDomains } from '../../../application/tenancy/list-customer-domains';
import { GetCustomerDomain } from '../../../application/tenancy/get-customer-domain';
import { UpdateCustomerDomain } from '../../../application/tenancy/update-customer-domain';
import { DeleteCustomerDomain } from '../../../application/tenancy/delete-customer-domain';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { IdParams, SuccessSchema } from './fields';
import {
  CreateDomainBody,
  CustomerDomainSchema,
  CustomerDomainWithExpirySchema,
  DomainListQuery,
  DomainPageSchema,
  UpdateDomainBody,
} from './watch.schemas';
import { presentDomain, presentExpiry } from './watch.presenters';

const tags = ['Customer domains'] as const;
const SCOPE =
  'Ids: public id or legacy integer id. Records of another organization, or of another customer for a ' +
  'customer-scoped caller, answer 404.';

/** Domains whose registration expiry is watched for a customer. */
export const customerDomainsRouter = defineRouter(
  {
    addCustomerDomain: AddCustomerDomain,
    listCustomerDomains: ListCustomerDomains,
    getCustomerDomain: GetCustomerDomain,
    updateCustomerDomain: UpdateCustomerDomain,
    deleteCustomerDomain: DeleteCustomerDomain,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'createCustomerDomain',
        method: 'post',
        path: '/api/customers/{id}/domains',
        tags,
        summary: 'Watch a domain of a customer',
        description:
          'Body: domainName (required; IDNs are stored as punycode), label (defaults to the name), status ' +
          '(active or paused), expiryWarningDays (default 30), expiryErrorDays (default 7, at most the warning days), ' +
          'notificationPhoneNumber, notificationEmail. The same name twice for a customer answers 409 ' +
          `customerDomainExists. Editors and admins, customer-scoped ones for their own customer. ${SCOPE}`,
        params: IdParams,
        body: CreateDomainBody,
        response: CustomerDomainSchema,
        errors: ['customerNotFound', 'customerDomainExists', 'roleForbidden'],
        handler: async ({ actor, params, body }) =>
          presentDomain(await use.addCustomerDomain.execute(actor, { customerId: params.id, domain: body })),
      })
      .route({
        operationId: 'listCustomerDomains',
        method: 'get',
        path: '/api/customer-domains',
        tags,
        summary: 'List customer domains',
        description:
          'Ordered by domain name. customerId (public or integer id) narrows to one customer; search matches ' +
          'a substring of the domain name or the label, case-insensitively.',
        query: DomainListQuery,
        response: DomainPageSchema,
        // The page comes serialized from the database (hot path); it is sent as it is.
        handler: async ({ actor, query, res }) => {
          const page = await use.listCustomerDomains.execute(actor, query);
          res.setHeader('Content-Type', 'application/json; charset=utf-8');
          res.send(page);
        },
      })
      .route({
        operationId: 'getCustomerDomain',
        method: 'get',
        path: '/api/customer-domains/{id}',
        tags,
        summary: 'Get a customer domain with its expiry',
        description: `expiry holds what the last check found; its fields are null (isExpired false) until checked. ${SCOPE}`,
        params: IdParams,
        response: CustomerDomainWithExpirySchema,
        errors: ['customerDomainNotFound'],
        handler: async ({ actor, params }) => {
          const { domain, expiry } = await use.getCustomerDomain.execute(actor, params);
          return { ...presentDomain(domain), expiry: presentExpiry(expiry) };
        },
      })
      .route({
        operationId: 'updateCustomerDomain',
        method: 'patch',
        path: '/api/customer-domains/{id}',
        tags,
        summary: 'Change a customer domain',
        description: `Any field of the create body. A new domainName discards the previous expiry results. ${SCOPE}`,
        params: IdParams,
        body: UpdateDomainBody,
        response: CustomerDomainSchema,
        errors: ['customerDomainNotFound', 'customerDomainExists', 'roleForbidden', 'conflict'],
        handler: async ({ actor, params, body }) =>
          presentDomain(await use.updateCustomerDomain.execute(actor, { id: params.id, change: body })),
      })
      .route({
        operationId: 'deleteCustomerDomain',
        method: 'delete',
        path: '/api/customer-domains/{id}',
        tags,
        summary: 'Stop watching a customer domain',
        description: SCOPE,
        params: IdParams,
        response: SuccessSchema,
        errors: ['customerDomainNotFound', 'roleForbidden'],
        handler: async ({ actor, params }) => {
          await use.deleteCustomerDomain.execute(actor, params);
          return { success: true };
        },
      }).router;
  },
);
