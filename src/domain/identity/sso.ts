import { AppError } from '../shared/app-error';
import { ROLES, type Role } from './role';

/** A sign-in started at the provider must come back within this time. */
export const SSO_LOGIN_LIFETIME_MS = 10 * 60_000;

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;
/** Roles from strongest to weakest: a user in several mapped groups gets the strongest. */
const STRENGTH: readonly Role[] = ['admin', 'editor', 'responder', 'readonly'];

export interface SsoConnectionProps {
  organizationId: number;
  issuer: string;
  clientId: string;
  /** The client secret as the credential cipher sealed it; never presented. */
  clientSecretSealed: string;
  allowedDomains: string[];
  defaultRole: Role;
  groupClaim: string | null;
  /** Group name to role, as sent: checked here (an empty group or a name that is no role is ssoGroupRoleInvalid). */
  groupRoles: Readonly<Record<string, string>>;
  ssoOnly: boolean;
  breakGlassUserId: string | null;
  updatedAt: Date;
}

const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** An organization's OpenID Connect provider, and the rules of who may sign in through it. */
export class SsoConnection {
  organizationId: number;
  issuer: string;
  clientId: string;
  clientSecretSealed: string;
  allowedDomains: string[];
  defaultRole: Role;
  groupClaim: string | null;
  groupRoles: Record<string, Role>;
  ssoOnly: boolean;
  breakGlassUserId: string | null;
  updatedAt: Date;
  /** The optimistic version of the stored settings (0: never stored): a save names the one it read. */
  version = 0;

  constructor(props: SsoConnectionProps) {
    this.organizationId = props.organizationId;
    this.issuer = SsoConnection.normalizeIssuer(props.issuer);
    this.clientId = props.clientId;
    this.clientSecretSealed = props.clientSecretSealed;
    this.allowedDomains = SsoConnection.normalizeDomains(props.allowedDomains);
    this.defaultRole = props.defaultRole;
    this.groupClaim = props.groupClaim;
    this.groupRoles = SsoConnection.checkGroupRoles(props.groupRoles);
    this.ssoOnly = props.ssoOnly;
    this.breakGlassUserId = props.breakGlassUserId;
    if (this.ssoOnly && !this.breakGlassUserId) throw new AppError('ssoBreakGlassRequired', { field: 'breakGlassUserId' });
    this.updatedAt = props.updatedAt;
  }

  /** https, or http on a loopback host (a provider run beside the service in development). */
  static normalizeIssuer(issuer: string): string {
    let url: URL;
    try {
      url = new URL(issuer.trim());
    } catch {
      throw new AppError('ssoIssuerInvalid', { field: 'issuer', issuer });
    }
    const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname));
    if (!secure || url.username || url.password || url.search || url.hash)
      throw new AppError('ssoIssuerInvalid', { field: 'issuer', issuer });
    return url.href.replace(/\/$/, '');
  }

  static normalizeDomains(domains: string[]): string[] {
    const normalized = [...new Set(domains.map((d) => d.trim().toLowerCase().replace(/^@/, '')))];
    if (normalized.length === 0) throw new AppError('ssoDomainInvalid', { field: 'allowedDomains', domain: '' });
    for (const domain of normalized) if (!DOMAIN.test(domain)) throw new AppError('ssoDomainInvalid', { field: 'allowedDomains', domain });
    return normalized.sort();
  }

  private static checkGroupRoles(groupRoles: Readonly<Record<string, string>>): Record<string, Role> {
    const checked: Record<string, Role> = {};
    for (const [group, role] of Object.entries(groupRoles)) {
      if (!group.trim() || !isRole(role)) throw new AppError('ssoGroupRoleInvalid', { field: 'groupRoles', group });
      checked[group] = role;
    }
    return checked;
  }

  static domainOf(email: string): string {
    return email.trim().toLowerCase().split('@').pop() ?? '';
  }

  /** Only addresses in the allowed domains sign in (or are created) through the provider. */
  assertEmailAllowed(email: string, emailVerified: boolean): void {
    if (!emailVerified) throw new AppError('ssoEmailNotVerified');
    if (!this.allowedDomains.includes(SsoConnection.domainOf(email))) {
      throw new AppError('ssoEmailDomainNotAllowed', { domain: SsoConnection.domainOf(email) });
    }
  }

  get mapsGroups(): boolean {
    return this.groupClaim !== null && Object.keys(this.groupRoles).length > 0;
  }

  /**
   * The role the provider's groups give: the strongest mapped one; with no mapped group, the default
   * role. Null when groups are not mapped (the user's role is then kept as the organization set it).
   */
  roleForGroups(groups: readonly string[]): Role | null {
    if (!this.mapsGroups) return null;
    const mapped = new Set(groups.map((g) => this.groupRoles[g]).filter((r): r is Role => r !== undefined));
    return STRENGTH.find((r) => mapped.has(r)) ?? this.defaultRole;
  }

  /** With "SSO only", passwords are refused for the organization's users except the break-glass admin. */
  allowsPasswordSignIn(userId: string): boolean {
    return !this.ssoOnly || userId === this.breakGlassUserId;
  }
}
