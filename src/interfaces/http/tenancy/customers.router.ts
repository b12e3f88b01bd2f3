import { z } from 'zod';
import { ListCustomers } from '../../../application/tenancy/list-customers';
import { GetCustomer } from '../../../application/tenancy/get-customer';
import { CreateCustomer } from '../../../application/tenancy/create-customer';
import { CreateCustomersInBulk, type BulkRowError } from '../../../application/tenancy/create-customers-in-bulk';
import { UpdateCustomer } from '../../../application/tenancy/update-customer';
import { DeleteCustomer } from '../../../application/tenancy/delete-customer';
import { GetSmsUsage } from '../../../application/tenancy/get-sms-usage';
import type { NewCustomerInput } from '../../../application/tenancy/customer-factory';
import { ApiRouter } from '../shared/api-router';
import { presentIssues } from '../shared/error-handler';
import { defineRouter } from '../shared/router-deps';
import { IdParams } from './fields';
import {
  BulkCustomersBody,
  CreateCustomerBody,
  CustomerFullSchema,
  CustomerSchema,
  SmsUsageSchema,
  UpdateCustomerBody,
} from './customer.schemas';
import { presentCustomer, presentCustomerFull, presentSmsUsage } from './customer.presenters';

const tags = ['Customers'] as const;
const SCOPE_NOTE = 'Customer-scoped callers see only their own customer; any other answers 404.';

/** Customers of the organization, their packages and custom field values, and SMS usage. */
export const customersRouter = defineRouter(
  {
    listCustomers: ListCustomers,
    createCustomer: CreateCustomer,
    createCustomersInBulk: CreateCustomersInBulk,
    getSmsUsage: GetSmsUsage,
    getCustomer: GetCustomer,
    updateCustomer: UpdateCustomer,
    deleteCustomer: DeleteCustomer,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'listCustomers',
        method: 'get',
        path: '/api/customers',
        tags,
        summary: 'List customers',
        description:
          `Ordered by name. ${SCOPE_NOTE} Query \`Response=full\` answers the full records (billing, ` +
          'alert and self-service settings); any other value, or none, the standard records.',
        query: z.object({ Response: z.string().max(20).optional() }),
        response: z.array(z.union([CustomerSchema, CustomerFullSchema])),
        handler: async ({ actor, query }) => {
          const views = await use.listCustomers.execute(actor);
          return views.map(query.Response === 'full' ? presentCustomerFull : presentCustomer);
        },
      })
      .route({
        operationId: 'createCustomer',
        method: 'post',
        path: '/api/customers',
        tags,
        summary: 'Create a customer',
        description:
          'Names its package by packageId or packageType (a package key or display name); without either, ' +
          "the organization's default package (an organization without packages gets a built-in `standard` one). " +
          'customFields are checked against the active custom field definitions. Editors and admins; not ' +
          'customer-scoped callers.',
        body: CreateCustomerBody,
        response: z.object({ success: z.literal(true), customer: CustomerSchema }),
        errors: ['invalidPackageType', 'invalidCustomFields', 'roleForbidden', 'customerScopedTokenForbidden'],
        handler: async ({ actor, body }) => ({
          success: true,
          customer: presentCustomer(await use.createCustomer.execute(actor, body)),
        }),
      })
      .route({
        operationId: 'createCustomersInBulk',
        method: 'post',
        path: '/api/customers/bulk',
        tags,
        summary: 'Create many customers at once',
        description:
          'Up to 500 rows, each a POST /api/customers body, created in one transaction: all or nothing. ' +
          'When any row fails the answer is 400 bulkRowsRejected with data.rows listing every failed row ' +
          "(index, code, message and that code's details, e.g. issues) and nothing is created.",
        body: BulkCustomersBody,
        response: z.object({ success: z.literal(true), created: z.number().int(), customers: z.array(CustomerSchema) }),
        errors: ['bulkRowsRejected', 'roleForbidden', 'customerScopedTokenForbidden'],
        handler: async ({ actor, body }) => {
          const rejected: BulkRowError[] = [];
          const rows = body.customers.map((row, index): NewCustomerInput | null => {
            const parsed = CreateCustomerBody.safeParse(row);
            if (parsed.success) return parsed.data;
            rejected.push({ index, code: 'validationFailed', message: 'Validation failed', issues: presentIssues(parsed.error) });
            return null;
          });
          const views = await use.createCustomersInBulk.execute(actor, { rows, rejected });
          return { success: true, created: views.length, customers: views.map(presentCustomer) };
        },
      })
      .route({
        operationId: 'getSmsUsage',
        method: 'get',
        path: '/api/customers/sms-usage',
        tags,
        summary: 'SMS sent this month per customer',
        description: `SMS sent in the current calendar month (UTC) against each customer's package allowance. ${SCOPE_NOTE}`,
        response: SmsUsageSchema,
        handler: async ({ actor }) => {
          const report = await use.getSmsUsage.execute(actor);
          return presentSmsUsage(report.month, report.customers);
        },
      })
      .route({
        operationId: 'getCustomer',
        method: 'get',
        path: '/api/customers/{id}',
        tags,
        summary: 'Get a customer',
        description: `The full record, with packageDisplayName and the billing, alert and self-service settings. ${SCOPE_NOTE}`,
        params: IdParams,
        response: CustomerFullSchema,
        errors: ['customerNotFound'],
        handler: async ({ actor, params }) => presentCustomerFull(await use.getCustomer.execute(actor, params)),
      })
      .route({
        operationId: 'updateCustomer',
        method: 'patch',
        path: '/api/customers/{id}',
        tags,
        summary: 'Change a customer (package, details, settings)',
        description:
          'A package change names an existing package by packageId or packageType; an unknown one is ' +
          'refused (invalidPackageType) and nothing is stored. A new package starts at its base quota tier. ' +
          'customFields merge key by key (null clears a key) and the result must satisfy the definitions. ' +
          'Customer-scoped callers may change their contact, billing, alert and notification details only: ' +
          'status, package, pricing, payment references, cancellationDate, allowedCheckCountryCodes, customFields ' +
          'and the self-service settings answer 403 customerScopedTokenForbidden (data.fields). ' +
          'Answers the full record.',
        params: IdParams,
        body: UpdateCustomerBody,
        response: CustomerFullSchema,
        errors: [
          'customerNotFound',
          'invalidPackageType',
          'invalidCustomFields',
          'roleForbidden',
          'customerScopedTokenForbidden',
          'conflict',
        ],
        handler: async ({ actor, params, body }) =>
          presentCustomerFull(await use.updateCustomer.execute(actor, { id: params.id, change: body })),
      })
      .route({
        operationId: 'deleteCustomer',
        method: 'delete',
        path: '/api/customers/{id}',
        tags,
        summary: 'Delete a customer and everything it owns',
        description:
          'Deletes the customer with its domains, IPs, SMS usage, customer-bound users and customer ' +
          'tokens. Answers `{success: true, id, publicId, deletedDomains, deletedIps}`. Editors and admins; not ' +
          'customer-scoped callers.',
        params: IdParams,
        response: z.object({
          success: z.literal(true),
          id: z.number().int(),
          publicId: z.uuid(),
          deletedDomains: z.number().int(),
          deletedIps: z.number().int(),
        }),
        errors: ['customerNotFound', 'roleForbidden', 'customerScopedTokenForbidden'],
        handler: async ({ actor, params }) => {
          const { customer, deletedDomains, deletedIps } = await use.deleteCustomer.execute(actor, params);
          return { success: true, id: customer.id, publicId: customer.publicId, deletedDomains, deletedIps };
        },
      }).router;
  },
);
