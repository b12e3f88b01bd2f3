import { AddCustomerIp } from '../../../application/tenancy/add-customer-ip';
import { ListCustomerIps } from '../../../application/tenancy/list-customer-ips';
import { GetCustomerIp } from '../../../application/tenancy/get-customer-ip';
import { UpdateCustomerIp } from '../../../application/tenancy/update-customer-ip';
import { DeleteCustomerIp } from '../../../application/tenancy/delete-customer-ip';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { IdParams, SuccessSchema } from './fields';
import { CreateIpBody, CustomerIpSchema, CustomerIpWithDnsblSchema, IpListQuery, IpPageSchema, UpdateIpBody } from './watch.schemas';
import { presentDnsbl, presentIp } from './watch.presenters';

const tags = ['Customer IPs'] as const;
const SCOPE =
  'Ids: public id or legacy integer id. Records of another organization, or of another customer for a ' +
  'customer-scoped caller, answer 404.';

/** IP addresses whose presence on DNS blocklists is watched for a customer. */
export const customerIpsRouter = defineRouter(
  {
    addCustomerIp: AddCustomerIp,
    listCustomerIps: ListCustomerIps,
    getCustomerIp: GetCustomerIp,
    updateCustomerIp: UpdateCustomerIp,
    deleteCustomerIp: DeleteCustomerIp,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'createCustomerIp',
        method: 'post',
        path: '/api/customers/{id}/ips',
        tags,
        status: 201,
        summary: 'Watch an IP address of a customer',
        description:
          'Body: ipAddress (required; IPv4 or IPv6, stored canonical: IPv6 compressed lowercase, ' +
          'IPv4-mapped IPv6 as IPv4), label (defaults to the address), status (active or paused), ' +
          'notificationPhoneNumber, notificationEmail. The same address twice for a customer answers 409 ' +
          `customerIpExists. Editors and admins, customer-scoped ones for their own customer. ${SCOPE}`,
        params: IdParams,
        body: CreateIpBody,
        response: CustomerIpSchema,
        errors: ['customerNotFound', 'customerIpExists', 'roleForbidden'],
        handler: async ({ actor, params, body }) => presentIp(await use.addCustomerIp.execute(actor, { customerId: params.id, ip: body })),
      })
      .route({
        operationId: 'listCustomerIps',
        method: 'get',
        path: '/api/customer-ips',
        tags,
        summary: 'List customer IPs',
        description:
          'Ordered by creation. customerId (public or integer id) narrows to one customer; search matches a ' +
          "substring of the address or the label, case-insensitively; organizationId other than the caller's own " +
          'yields an empty page.',
        query: IpListQuery,
        response: IpPageSchema,
        // The page comes serialized from the database (hot path); it is sent as it is.
        handler: async ({ actor, query, res }) => {
          const page = await use.listCustomerIps.execute(actor, query);
          res.setHeader('Content-Type', 'application/json; charset=utf-8');
          res.send(page);
        },
      })
      .route({
        operationId: 'getCustomerIp',
        method: 'get',
        path: '/api/customer-ips/{id}',
        tags,
        summary: 'Get a customer IP with its blocklist status',
        description: `dnsbl holds what the last check found: not listed, no listings and null times until checked. ${SCOPE}`,
        params: IdParams,
        response: CustomerIpWithDnsblSchema,
        errors: ['customerIpNotFound'],
        handler: async ({ actor, params }) => {
          const { ip, dnsbl } = await use.getCustomerIp.execute(actor, params);
          return { ...presentIp(ip), dnsbl: presentDnsbl(dnsbl) };
        },
      })
      .route({
        operationId: 'updateCustomerIp',
        method: 'patch',
        path: '/api/customer-ips/{id}',
        tags,
        summary: 'Change a customer IP',
        description: `label, status, notification fields, or ipAddress (which discards the previous blocklist results). ${SCOPE}`,
        params: IdParams,
        body: UpdateIpBody,
        response: CustomerIpSchema,
        errors: ['customerIpNotFound', 'customerIpExists', 'roleForbidden', 'conflict'],
        handler: async ({ actor, params, body }) => presentIp(await use.updateCustomerIp.execute(actor, { id: params.id, change: body })),
      })
      .route({
        operationId: 'deleteCustomerIp',
        method: 'delete',
        path: '/api/customer-ips/{id}',
        tags,
        summary: 'Stop watching a customer IP',
        description: SCOPE,
        params: IdParams,
        response: SuccessSchema,
        errors: ['customerIpNotFound', 'roleForbidden'],
        handler: async ({ actor, params }) => {
          await use.deleteCustomerIp.execute(actor, params);
          return { success: true };
        },
      }).router;
  },
);
