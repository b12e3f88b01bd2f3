import type { PackageConfig } from '../../../domain/tenancy/package-config';
import { ListPackageConfigs } from '../../../application/tenancy/list-package-configs';
import { GetPackageConfig } from '../../../application/tenancy/get-package-config';
import { CreatePackageConfig } from '../../../application/tenancy/create-package-config';
import { UpdatePackageConfig } from '../../../application/tenancy/update-package-config';
import { DeletePackageConfig } from '../../../application/tenancy/delete-package-config';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { IdParams, SuccessSchema } from './fields';
import { CreatePackageConfigBody, PackageConfigSchema, UpdatePackageConfigBody } from './package-config.schemas';
import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';

const tags = ['Package configs'] as const;
const WRITERS = 'Organization admins only; customer-scoped callers get 403 customerScopedTokenForbidden.';

export const presentPackageConfig = (p: PackageConfig) => ({
  id: p.id,
  publicId: p.publicId,
  organizationId: p.organizationId,
  key: p.key,
  displayName: p.displayName,
  description: p.description,
  minCheckIntervalMinutes: p.minCheckIntervalMinutes,
  monitorLimit: p.monitorLimit,
  quotaTiers: p.quotaTiers.map(({ monitorLimit, priceMonthly }) => ({ monitorLimit, priceMonthly })),
  smsMonthlyAllowance: p.smsMonthlyAllowance,
  isDefault: p.isDefault,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
});

/** The packages an organization sells its customers: check interval floor, monitor quota tiers, SMS allowance. */
export const packageConfigsRouter = defineRouter(
  {
    listPackageConfigs: ListPackageConfigs,
    getPackageConfig: GetPackageConfig,
    createPackageConfig: CreatePackageConfig,
    updatePackageConfig: UpdatePackageConfig,
    deletePackageConfig: DeletePackageConfig,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'listPackageConfigs',
        method: 'get',
        path: '/api/package-configs',
        tags,
        summary: 'List package configs',
        description: 'Every caller of the organization may read them, customer-scoped callers included.',
        query: PageOnlyQuery,
        response: pagedSchema(PackageConfigSchema, 'PackageConfigPage'),
        handler: async ({ actor, query }) => pageOf((await use.listPackageConfigs.execute(actor)).map(presentPackageConfig), query),
      })
      .route({
        operationId: 'getPackageConfig',
        method: 'get',
        path: '/api/package-configs/{id}',
        tags,
        summary: 'Get a package config',
        params: IdParams,
        response: PackageConfigSchema,
        errors: ['packageConfigNotFound'],
        handler: async ({ actor, params }) => presentPackageConfig(await use.getPackageConfig.execute(actor, params)),
      })
      .route({
        operationId: 'createPackageConfig',
        method: 'post',
        path: '/api/package-configs',
        tags,
        status: 201,
        summary: 'Create a package config',
        description:
          `Keys and display names are unique in the organization (case-insensitive; 409 packageKeyTaken). ` +
          `A package created with isDefault takes the default flag from the previous one. ${WRITERS}`,
        body: CreatePackageConfigBody,
        response: PackageConfigSchema,
        errors: ['packageKeyTaken', 'roleForbidden', 'customerScopedTokenForbidden'],
        handler: async ({ actor, body }) =>
          presentPackageConfig(
            await use.createPackageConfig.execute(actor, {
              ...body,
              description: body.description ?? null,
              quotaTiers: body.quotaTiers!,
            }),
          ),
      })
      .route({
        operationId: 'updatePackageConfig',
        method: 'patch',
        path: '/api/package-configs/{id}',
        tags,
        summary: 'Change a package config',
        description:
          'Customers on the package follow at once; customers on a tier the new quotaTiers no longer have ' +
          `move to its top tier. ${WRITERS}`,
        params: IdParams,
        body: UpdatePackageConfigBody,
        response: PackageConfigSchema,
        errors: ['packageConfigNotFound', 'packageKeyTaken', 'roleForbidden', 'customerScopedTokenForbidden', 'conflict'],
        handler: async ({ actor, params, body }) =>
          presentPackageConfig(await use.updatePackageConfig.execute(actor, { id: params.id, change: body })),
      })
      .route({
        operationId: 'deletePackageConfig',
        method: 'delete',
        path: '/api/package-configs/{id}',
        tags,
        summary: 'Delete a package config',
        description: `Refused with 409 packageConfigInUse (data.customerCount) while customers are on it. ${WRITERS}`,
        params: IdParams,
        response: SuccessSchema,
        errors: ['packageConfigNotFound', 'packageConfigInUse', 'roleForbidden', 'customerScopedTokenForbidden'],
        handler: async ({ actor, params }) => {
          await use.deletePackageConfig.execute(actor, params);
          return { success: true };
        },
      }).router;
  },
);
