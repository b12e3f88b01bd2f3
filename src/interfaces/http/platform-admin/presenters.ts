import type {
  AdminOrganizationSummary,
  AdminUserDetail,
  AdminUserView,
  OrganizationUsage,
} from '../../../application/platform-admin/ports';

export const presentAdminOrganization = (o: AdminOrganizationSummary) => ({
  id: o.id,
  publicId: o.publicId,
  name: o.name,
  status: o.status,
  billingEmail: o.billingEmail,
  vatId: o.vatId,
  countryCode: o.countryCode,
  incidentManagementEnabled: o.incidentManagementEnabled,
  createdAt: o.createdAt.toISOString(),
  customers: o.customers,
  monitors: o.monitors,
  members: o.members,
});

export const presentAdminOrganizationDetail = ({
  organization,
  usage,
}: {
  organization: AdminOrganizationSummary;
  usage: OrganizationUsage;
}) => ({
  ...presentAdminOrganization(organization),
  usage: {
    monitorsByKind: usage.monitorsByKind,
    activeMembers: usage.activeMembers,
    checks: { last24h: usage.checks.last24h, last30d: usage.checks.last30d },
    smsThisMonth: usage.smsThisMonth,
    deliveriesLast7d: { ...usage.deliveriesLast7d },
    storage: { resultRows: usage.resultRows },
    customDomains: usage.customDomains,
  },
});

export const presentAdminUser = (u: AdminUserView) => ({
  id: u.id,
  organizationId: u.organizationId,
  organizationPublicId: u.organizationPublicId,
  organizationName: u.organizationName,
  organizationStatus: u.organizationStatus,
  customerId: u.customerId,
  name: u.name,
  email: u.email,
  role: u.role,
  isActive: u.isActive,
  isGlobalAdmin: u.isGlobalAdmin,
  isGlobalSupporter: u.isGlobalSupporter,
  mfaEnrolled: u.mfaEnrolled,
  lastSignInAt: u.lastSignInAt ? u.lastSignInAt.toISOString() : null,
  createdAt: u.createdAt.toISOString(),
});

export const presentAdminUserDetail = (u: AdminUserDetail) => ({ ...presentAdminUser(u), activeSessions: u.activeSessions });
