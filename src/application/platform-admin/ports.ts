import type { OrganizationStatus } from '../../domain/identity/organization';
import type { Role } from '../../domain/identity/role';
import type { UsageWindows } from '../../domain/platform-admin/usage-windows';
import { token } from '../shared/token';

/**
 * Read models of the platform staff's views (/api/admin/**). They read across every tenant on
 * purpose: only platform admins and supporters reach them (requirePlatformStaff). Each list page is
 * one set-based query; usage figures are aggregated with GROUP BY, never per row.
 */

export interface AdminPageRequest {
  page: number;
  perPage: number;
}

export const ADMIN_ORGANIZATION_SORTS = ['name', '-name', 'createdAt', '-createdAt', 'monitors', '-monitors'] as const;
export type AdminOrganizationSort = (typeof ADMIN_ORGANIZATION_SORTS)[number];

export interface AdminOrganizationQuery extends AdminPageRequest {
  status?: OrganizationStatus;
  /** Part of the name, the billing email or a custom domain hostname (case-insensitive). */
  search?: string;
  sort: AdminOrganizationSort;
}

export interface AdminOrganizationSummary {
  id: number;
  publicId: string;
  name: string;
  status: OrganizationStatus;
  billingEmail: string | null;
  vatId: string | null;
  countryCode: string | null;
  incidentManagementEnabled: boolean;
  createdAt: Date;
  customers: number;
  monitors: number;
  members: number;
}

export interface OrganizationUsage {
  monitorsByKind: Record<string, number>;
  activeMembers: number;
  checks: { last24h: number; last30d: number };
  smsThisMonth: number;
  deliveriesLast7d: { delivered: number; failed: number; pending: number };
  /** Raw check result rows the organization's monitors hold now. */
  resultRows: number;
  customDomains: string[];
}

export interface AdminOrganizationViews {
  list(query: AdminOrganizationQuery): Promise<{ items: AdminOrganizationSummary[]; total: number }>;
  /** By public id or legacy integer id. */
  find(ref: string): Promise<AdminOrganizationSummary | null>;
  usage(organizationId: number, windows: UsageWindows): Promise<OrganizationUsage>;
}
export const ADMIN_ORGANIZATION_VIEWS = token<AdminOrganizationViews>('AdminOrganizationViews');

export const ADMIN_USER_SORTS = ['email', '-email', 'createdAt', '-createdAt', 'lastSignInAt', '-lastSignInAt'] as const;
export type AdminUserSort = (typeof ADMIN_USER_SORTS)[number];

export interface AdminUserQuery extends AdminPageRequest {
  /** Part of the email or the name (case-insensitive). */
  search?: string;
  organizationId?: number;
  role?: Role;
  isActive?: boolean;
  sort: AdminUserSort;
}

export interface AdminUserView {
  id: string;
  organizationId: number;
  organizationPublicId: string;
  organizationName: string;
  organizationStatus: OrganizationStatus;
  customerId: number | null;
  name: string;
  email: string;
  role: Role;
  isActive: boolean;
  isGlobalAdmin: boolean;
  isGlobalSupporter: boolean;
  mfaEnrolled: boolean;
  /** Null until the user signs in after sign-ins began to be recorded. */
  lastSignInAt: Date | null;
  createdAt: Date;
}

export interface AdminUserDetail extends AdminUserView {
  /** Sessions of the user that have not expired at `now`. */
  activeSessions: number;
}

export interface AdminUserViews {
  list(query: AdminUserQuery): Promise<{ items: AdminUserView[]; total: number }>;
  find(id: string, now: Date): Promise<AdminUserDetail | null>;
}
export const ADMIN_USER_VIEWS = token<AdminUserViews>('AdminUserViews');

export interface OrganizationFigure {
  organizationId: number;
  publicId: string;
  name: string;
  value: number;
}

export interface PlatformUsage {
  totals: {
    organizations: number;
    organizationsByStatus: Record<string, number>;
    customers: number;
    users: number;
    activeUsers: number;
    monitors: number;
    monitorsByKind: Record<string, number>;
    checksLast24h: number;
    smsThisMonth: number;
  };
  top: { monitors: OrganizationFigure[]; checksLast24h: OrganizationFigure[]; smsThisMonth: OrganizationFigure[] };
}

export interface PlatformUsageViews {
  usage(windows: UsageWindows, top: number): Promise<PlatformUsage>;
}
export const PLATFORM_USAGE_VIEWS = token<PlatformUsageViews>('PlatformUsageViews');
