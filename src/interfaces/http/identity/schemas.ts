import { z } from 'zod';
import 'zod-openapi';
import { ROLES } from '../../../domain/identity/role';
import { PermissionsSchema } from './permissions.schema';
import { ACCENT_COLOR, BRAND_LOGO, MAX_BRAND_LOGO_BYTES } from '../../../domain/identity/branding';

export const Email = z.email().max(254);
export const Password = z.string().min(8).max(256);
export const Timestamp = z.iso.datetime();

export const UserSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    role: z.enum(ROLES),
    organizationId: z.number().int(),
    customerId: z.number().int().nullable(),
    isActive: z.boolean(),
    isGlobalAdmin: z.boolean(),
    isGlobalSupporter: z.boolean(),
    twoFactorEnabled: z.boolean(),
    organizationStatus: z.string().optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'User' });

export const SessionSchema = z
  .object({
    session: z.object({
      userId: z.string(),
      expiresAt: Timestamp.nullable(),
      token: z.string().meta({ description: 'Empty for token callers' }),
    }),
    user: UserSchema,
    incidentManagement: z.enum(['enabled', 'notEnabled', 'accessDenied']).meta({
      description:
        "Whether the caller may use incident management (/api/im/**), as its gate would answer: `enabled`; `notEnabled` (the caller's role may, the organization has it off: imNotEnabled); `accessDenied` (the caller may not, whatever the organization has: imAccessDenied or customerScopedTokenForbidden). The console draws its On-call part from it and calls no IM route otherwise.",
    }),
    can: PermissionsSchema,
  })
  .meta({ id: 'Session' });

export const SignedInSchema = z.object({ token: z.string(), user: UserSchema }).meta({ id: 'SignedIn' });

/** White-label look: the formats are the domain's rules (domain/identity/branding.ts), which the use case applies too. */
export const AccentColor = z.string().regex(ACCENT_COLOR, 'Must be #rrggbb').nullable().meta({
  description:
    "The console's accent colour on the organization's active white-label hosts, `#rrggbb` (stored in lower case); null: the platform's",
  example: '#0a7d5a',
});
export const BrandLogo = z
  .string()
  .max(Math.ceil(MAX_BRAND_LOGO_BYTES / 3) * 4 + 64)
  .regex(BRAND_LOGO, 'Must be a data:image/(png|jpeg|gif|webp|svg+xml);base64, URL')
  .nullable()
  .meta({
    description: `The console's logo on the organization's active white-label hosts: a base64 data URL (PNG, JPEG, GIF, WebP or SVG), at most ${MAX_BRAND_LOGO_BYTES / 1024} KiB decoded; null: none`,
  });

export const OrganizationSchema = z
  .object({
    id: z.number().int(),
    publicId: z.uuid(),
    name: z.string(),
    status: z.enum(['active', 'suspended', 'cancelled', 'deleted']),
    vatId: z.string().nullable(),
    countryCode: z.string().nullable(),
    billingEmail: z.string().nullable(),
    requireMfaAdmins: z.boolean(),
    requireMfaEditors: z.boolean(),
    requireMfaReadonly: z.boolean(),
    incidentManagementEnabled: z.boolean(),
    autoQuotaUpgrade: z.boolean(),
    accentColor: AccentColor,
    logo: BrandLogo,
    cancelledAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Organization' });

export const ApiTokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    organizationId: z.number().int(),
    customerId: z.number().int().nullable(),
    createdByUserId: z.string(),
    tokenPrefix: z.string(),
    expiresAt: Timestamp.nullable(),
    lastUsedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'ApiToken' });

export const SuccessSchema = z.object({ success: z.literal(true) }).meta({ id: 'Success' });
