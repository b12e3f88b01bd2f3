import type { User } from '../../../domain/identity/user';
import type { Organization } from '../../../domain/identity/organization';
import type { ApiToken } from '../../../domain/identity/api-token';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const presentUser = (user: User, organization?: Pick<Organization, 'status'>) => ({
  id: user.id,
  name: user.name,
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
  role: user.role,
  organizationId: user.organizationId,
  customerId: user.customerId,
  isActive: user.isActive,
  isGlobalAdmin: user.isGlobalAdmin,
  isGlobalSupporter: user.isGlobalSupporter,
  twoFactorEnabled: user.twoFactorEnabled,
  ...(organization ? { organizationStatus: organization.status } : {}),
  createdAt: user.createdAt.toISOString(),
  updatedAt: user.updatedAt.toISOString(),
});

export const presentOrganization = (organization: Organization) => ({
  id: organization.id,
  publicId: organization.publicId,
  name: organization.name,
  status: organization.status,
  vatId: organization.vatId,
  countryCode: organization.countryCode,
  billingEmail: organization.billingEmail,
  requireMfaAdmins: organization.requireMfaAdmins,
  requireMfaEditors: organization.requireMfaEditors,
  requireMfaReadonly: organization.requireMfaReadonly,
  incidentManagementEnabled: organization.incidentManagementEnabled,
  autoQuotaUpgrade: organization.autoQuotaUpgrade,
  accentColor: organization.accentColor,
  logo: organization.logo,
  cancelledAt: iso(organization.cancelledAt),
  createdAt: organization.createdAt.toISOString(),
  updatedAt: organization.updatedAt.toISOString(),
});

export const presentApiToken = (token: ApiToken) => ({
  id: token.id,
  name: token.name,
  organizationId: token.organizationId,
  customerId: token.customerId,
  createdByUserId: token.createdByUserId,
  tokenPrefix: token.tokenPrefix,
  expiresAt: iso(token.expiresAt),
  lastUsedAt: iso(token.lastUsedAt),
  createdAt: token.createdAt.toISOString(),
  updatedAt: token.updatedAt.toISOString(),
});
