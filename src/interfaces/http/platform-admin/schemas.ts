import { z } from 'zod';
import { ORGANIZATION_STATUSES } from '../../../domain/identity/organization';
import { ROLES } from '../../../domain/identity/role';
import { ADMIN_ORGANIZATION_SORTS, ADMIN_USER_SORTS } from '../../../application/platform-admin/ports';
import { PageQuery, QueryId, pagedSchema } from '../shared/paging';

const Timestamp = z.iso.datetime();
const Count = z.number().int().min(0);
const Search = z.string().trim().min(1).max(200);
/** `true` or `false` in the query string; anything else is a 400. */
const QueryBoolean = z.enum(['true', 'false']).transform((value) => value === 'true');

export const OrganizationRefParams = z
  .object({
    id: z.string().min(1).max(64).meta({ description: 'Public id (uuid) or legacy integer id of the organization' }),
  })
  .strict();

export const UserIdParams = z.object({ id: z.string().min(1).max(64).meta({ description: 'User id (uuid)' }) }).strict();

export const AdminOrganizationsQuery = z
  .object({
    ...PageQuery,
    status: z.enum(ORGANIZATION_STATUSES).optional(),
    search: Search.optional().meta({ description: 'Part of the name, the billing email or a custom domain hostname (case-insensitive)' }),
    sort: z
      .enum(ADMIN_ORGANIZATION_SORTS)
      .default('name')
      .meta({ description: 'Sort key; a leading `-` sorts descending. Ties are broken by id.' }),
  })
  .strict();

export const AdminUsersQuery = z
  .object({
    ...PageQuery,
    search: Search.optional().meta({ description: 'Part of the email or the name (case-insensitive)' }),
    organizationId: QueryId.optional().meta({ description: 'Legacy integer id of the organization' }),
    role: z.enum(ROLES).optional(),
    isActive: QueryBoolean.optional().meta({ description: '`true` or `false`' }),
    sort: z
      .enum(ADMIN_USER_SORTS)
      .default('email')
      .meta({ description: 'Sort key; a leading `-` sorts descending. Users who never signed in come last by lastSignInAt.' }),
  })
  .strict();

export const AdminUsageQuery = z
  .object({
    top: z.coerce.number().int().min(1).max(100).default(10).meta({ description: 'How many organizations each top list holds' }),
  })
  .strict();

export const AdminOrganizationSchema = z
  .object({
    id: z.number().int(),
    publicId: z.uuid(),
    name: z.string(),
    status: z.enum(ORGANIZATION_STATUSES),
    billingEmail: z.string().nullable(),
    vatId: z.string().nullable(),
    countryCode: z.string().nullable(),
    incidentManagementEnabled: z.boolean(),
    createdAt: Timestamp,
    customers: Count,
    monitors: Count,
    members: Count.meta({ description: 'Users of the organization, active or not' }),
  })
  .meta({ id: 'AdminOrganization' });

export const AdminOrganizationsPage = pagedSchema(AdminOrganizationSchema, 'AdminOrganizationsPage');

export const AdminOrganizationDetailSchema = AdminOrganizationSchema.extend({
  usage: z.object({
    monitorsByKind: z
      .record(z.string(), Count)
      .meta({ description: 'Monitors per kind (a Monitor type: website or a per-kind type); kinds without monitors are left out' }),
    activeMembers: Count,
    checks: z.object({ last24h: Count, last30d: Count }).meta({ description: 'Check results recorded in the last 24 hours and 30 days' }),
    smsThisMonth: Count.meta({ description: 'SMS sent in the current calendar month (UTC)' }),
    deliveriesLast7d: z
      .object({ delivered: Count, failed: Count, pending: Count })
      .meta({ description: 'Notification deliveries created in the last 7 days, by their state now' }),
    storage: z.object({
      resultRows: Count.meta({
        description: "Raw check result rows held for the organization's monitors (from the hourly rollups and the rows not rolled up yet)",
      }),
    }),
    customDomains: z.array(z.string()).meta({ description: 'Hostnames of its custom domains, any state' }),
  }),
}).meta({ id: 'AdminOrganizationDetail' });

export const AdminUserSchema = z
  .object({
    id: z.uuid(),
    organizationId: z.number().int(),
    organizationPublicId: z.uuid(),
    organizationName: z.string(),
    organizationStatus: z.enum(ORGANIZATION_STATUSES),
    customerId: z.number().int().nullable().meta({ description: 'Set for customer-bound users' }),
    name: z.string(),
    email: z.string(),
    role: z.enum(ROLES),
    isActive: z.boolean(),
    isGlobalAdmin: z.boolean(),
    isGlobalSupporter: z.boolean(),
    mfaEnrolled: z.boolean().meta({ description: 'Two-step verification is on' }),
    lastSignInAt: Timestamp.nullable().meta({ description: 'Last completed sign-in; null when none was recorded' }),
    createdAt: Timestamp,
  })
  .meta({ id: 'AdminUser' });

export const AdminUsersPage = pagedSchema(AdminUserSchema, 'AdminUsersPage');

export const AdminUserDetailSchema = AdminUserSchema.extend({
  activeSessions: Count.meta({ description: 'Signed-in sessions not expired yet' }),
}).meta({ id: 'AdminUserDetail' });

const Figure = z
  .object({ organizationId: z.number().int(), publicId: z.uuid(), name: z.string(), value: Count })
  .meta({ id: 'AdminOrganizationFigure' });

export const PlatformUsageSchema = z
  .object({
    totals: z.object({
      organizations: Count,
      organizationsByStatus: z.record(z.string(), Count),
      customers: Count,
      users: Count,
      activeUsers: Count,
      monitors: Count,
      monitorsByKind: z.record(z.string(), Count),
      checksLast24h: Count,
      smsThisMonth: Count,
    }),
    top: z
      .object({
        monitors: z.array(Figure),
        checksLast24h: z.array(Figure),
        smsThisMonth: z.array(Figure),
      })
      .meta({ description: 'Organizations with the highest figures, highest first (only those above zero)' }),
  })
  .meta({ id: 'PlatformUsage' });
