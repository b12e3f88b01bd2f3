import { accentColor, brandLogo, type BrandingChange } from './branding';
import type { Role } from './role';

export const ORGANIZATION_STATUSES = ['active', 'suspended', 'cancelled', 'deleted'] as const;
export type OrganizationStatus = (typeof ORGANIZATION_STATUSES)[number];

export interface OrganizationProfileChange {
  name?: string;
  vatId?: string | null;
  countryCode?: string | null;
  billingEmail?: string | null;
  requireMfaAdmins?: boolean;
  requireMfaEditors?: boolean;
  requireMfaReadonly?: boolean;
}

export type { BrandingChange };

export class Organization {
  id!: number;
  publicId: string;
  name: string;
  status: OrganizationStatus = 'active';
  vatId: string | null = null;
  countryCode: string | null = null;
  billingEmail: string | null = null;
  requireMfaAdmins = false;
  requireMfaEditors = false;
  requireMfaReadonly = false;
  incidentManagementEnabled = false;
  /** Monitor quota tiers are upgraded automatically when the quota is exhausted (monitors context). */
  autoQuotaUpgrade = false;
  cancelledAt: Date | null = null;
  /** White-label: the console's accent colour on the organization's hosts (`#rrggbb`), null for the platform's. */
  accentColor: string | null = null;
  /** White-label: the console's logo on the organization's hosts (a base64 data URL), null for none. */
  logo: string | null = null;
  createdAt: Date;
  updatedAt: Date;
  version = 1;

  constructor(props: { publicId: string; name: string; now: Date }) {
    this.publicId = props.publicId;
    this.name = props.name;
    this.createdAt = props.now;
    this.updatedAt = props.now;
  }

  /** Two-step verification is enforced for this role by the organization's flags. */
  requiresMfaFor(role: Role): boolean {
    if (role === 'admin') return this.requireMfaAdmins;
    if (role === 'editor') return this.requireMfaEditors;
    if (role === 'readonly') return this.requireMfaReadonly;
    return false;
  }

  updateProfile(change: OrganizationProfileChange, now: Date): void {
    for (const [key, value] of Object.entries(change)) {
      if (value !== undefined) (this as Record<string, unknown>)[key] = value;
    }
    this.updatedAt = now;
  }

  /** Sets the white-label look; each value is checked by the branding rules (accentColor, brandLogo). */
  updateBranding(change: BrandingChange, now: Date): void {
    const color = change.accentColor === undefined ? this.accentColor : accentColor(change.accentColor);
    const logo = change.logo === undefined ? this.logo : brandLogo(change.logo);
    this.accentColor = color;
    this.logo = logo;
    this.updatedAt = now;
  }

  changeStatus(status: OrganizationStatus, now: Date): void {
    if (status === this.status) return;
    this.cancelledAt = status === 'cancelled' ? now : null;
    this.status = status;
    this.updatedAt = now;
  }

  setIncidentManagement(enabled: boolean, now: Date): void {
    this.incidentManagementEnabled = enabled;
    this.updatedAt = now;
  }
}
