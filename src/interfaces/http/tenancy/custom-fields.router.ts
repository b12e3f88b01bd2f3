import type { CustomField } from '../../../domain/tenancy/custom-field';
import { ListCustomFields } from '../../../application/tenancy/list-custom-fields';
import { CreateCustomField } from '../../../application/tenancy/create-custom-field';
import { UpdateCustomField } from '../../../application/tenancy/update-custom-field';
import { DeleteCustomField } from '../../../application/tenancy/delete-custom-field';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { IdParams, SuccessSchema } from './fields';
import { CreateCustomFieldBody, CustomFieldSchema, UpdateCustomFieldBody } from './custom-field.schemas';
import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';

const tags = ['Custom fields'] as const;
const ACCESS =
  'Reads: every organization-wide caller. Writes: organization admins. Customer-scoped callers get 403 ' + 'customerScopedTokenForbidden.';

export const presentCustomField = (f: CustomField) => ({
  id: f.id,
  publicId: f.publicId,
  organizationId: f.organizationId,
  fieldKey: f.fieldKey,
  name: f.name,
  fieldType: f.fieldType,
  isRequired: f.isRequired,
  displayOrder: f.displayOrder,
  options: f.options,
  placeholder: f.placeholder,
  helpText: f.helpText,
  showInTable: f.showInTable,
  isActive: f.isActive,
  createdAt: f.createdAt.toISOString(),
  updatedAt: f.updatedAt.toISOString(),
});

/** Definitions of the extra data an organization keeps on its customers (a customer's customFields). */
export const customFieldsRouter = defineRouter(
  {
    listCustomFields: ListCustomFields,
    createCustomField: CreateCustomField,
    updateCustomField: UpdateCustomField,
    deleteCustomField: DeleteCustomField,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'listCustomFields',
        method: 'get',
        path: '/api/custom-fields',
        tags,
        summary: 'List custom fields',
        description: `In display order, inactive ones included. ${ACCESS}`,
        query: PageOnlyQuery,
        response: pagedSchema(CustomFieldSchema, 'CustomFieldPage'),
        errors: ['customerScopedTokenForbidden'],
        handler: async ({ actor, query }) => pageOf((await use.listCustomFields.execute(actor)).map(presentCustomField), query),
      })
      .route({
        operationId: 'createCustomField',
        method: 'post',
        path: '/api/custom-fields',
        tags,
        summary: 'Create a custom field',
        description:
          'Types: text (up to 1,000 characters), textarea (10,000), number, boolean, select (one of options, ' +
          'which it requires), date (YYYY-MM-DD), email, url (http or https). fieldKey is unique in the organization ' +
          `(409 customFieldKeyTaken) and fixed once created. ${ACCESS}`,
        body: CreateCustomFieldBody,
        response: CustomFieldSchema,
        errors: ['customFieldKeyTaken', 'organizationNotFound', 'roleForbidden', 'customerScopedTokenForbidden'],
        handler: async ({ actor, body }) => presentCustomField(await use.createCustomField.execute(actor, body)),
      })
      .route({
        operationId: 'updateCustomField',
        method: 'patch',
        path: '/api/custom-fields/{id}',
        tags,
        summary: 'Change a custom field',
        description:
          'Values already stored on customers are kept as they are; the new rules apply to later writes. ' +
          'An inactive field accepts no values and is not required; its stored values stay. Changing the type away ' +
          `from select drops the options. ${ACCESS}`,
        params: IdParams,
        body: UpdateCustomFieldBody,
        response: CustomFieldSchema,
        errors: ['customFieldNotFound', 'roleForbidden', 'customerScopedTokenForbidden', 'conflict'],
        handler: async ({ actor, params, body }) =>
          presentCustomField(await use.updateCustomField.execute(actor, { id: params.id, change: body })),
      })
      .route({
        operationId: 'deleteCustomField',
        method: 'delete',
        path: '/api/custom-fields/{id}',
        tags,
        summary: 'Delete a custom field and its values',
        description: `Removes the field's value from every customer; deactivate the field (isActive: false) to keep them. ${ACCESS}`,
        params: IdParams,
        response: SuccessSchema,
        errors: ['customFieldNotFound', 'roleForbidden', 'customerScopedTokenForbidden'],
        handler: async ({ actor, params }) => {
          await use.deleteCustomField.execute(actor, params);
          return { success: true };
        },
      }).router;
  },
);
