import { z } from 'zod';
import { ORGANIZATION_STATUSES } from '../../../domain/identity/organization';
import { PlatformAdministration } from '../../../application/identity/organization-settings';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { presentOrganization } from './presenters';
import { OrganizationSchema } from './schemas';

const tags = ['Platform administration'] as const;
const SettingsSchema = z
  .object({
    agentAuthEnabled: z.boolean(),
    agentWritesEnabled: z.boolean(),
    serviceAuthEnabled: z.boolean(),
  })
  .meta({ id: 'PlatformSettings' });

/** Platform admins only (signed in): organization status and features, and the platform switches. */
export const platformAdminRouter = defineRouter({ platformAdministration: PlatformAdministration }, (deps, use) => {
  const platform = () => use.platformAdministration;
  return new ApiRouter(deps)
    .route({
      operationId: 'administerOrganization',
      method: 'patch',
      path: '/api/platform-admin/organizations/{id}',
      tags,
      summary: 'Suspend, cancel, delete or reactivate an organization; switch incident management',
      description:
        'Suspended organizations get 423 without a code outside a small allowlist; deleted ones 423 ' +
        'organizationSuspended everywhere. Takes effect within seconds on every instance.',
      params: z.object({ id: z.string().min(1).max(64) }),
      body: z
        .object({
          status: z.enum(ORGANIZATION_STATUSES).optional(),
          incidentManagementEnabled: z.boolean().optional(),
        })
        .strict(),
      response: OrganizationSchema,
      errors: ['platformAdminRequired', 'organizationNotFound'],
      handler: async ({ actor, params, body }) => presentOrganization(await platform().updateOrganization(actor, params.id, body)),
    })
    .route({
      operationId: 'getPlatformSettings',
      method: 'get',
      path: '/api/platform-admin/settings',
      tags,
      summary: 'Platform switches',
      response: SettingsSchema,
      errors: ['platformAdminRequired'],
      handler: ({ actor }) => platform().getSettings(actor),
    })
    .route({
      operationId: 'updatePlatformSettings',
      method: 'patch',
      path: '/api/platform-admin/settings',
      tags,
      summary: 'Change platform switches',
      body: SettingsSchema.partial().strict(),
      response: SettingsSchema,
      errors: ['platformAdminRequired'],
      handler: ({ actor, body }) => platform().updateSettings(actor, body),
    }).router;
});
