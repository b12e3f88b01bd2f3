import type { TenantScope } from '../shared/tenant-scope';

export const API_TOKEN_PREFIX = 'wsm_';
export const MAX_TOKEN_LIFETIME_DAYS = 3650;

/**
 * An organization-wide token (customerId null) or a customer-scoped one. It acts with the role of
 * the user who minted it. Only the SHA-256 of the secret is stored; the secret is shown once.
 */
export class ApiToken {
  id: string;
  organizationId: number;
  customerId: number | null;
  createdByUserId: string;
  name: string;
  tokenHash: string;
  /** The first characters of the secret, for telling tokens apart in lists. */
  tokenPrefix: string;
  expiresAt: Date | null;
  lastUsedAt: Date | null = null;
  revokedAt: Date | null = null;
  createdAt: Date;
  updatedAt: Date;
  version = 1;

  constructor(props: {
    id: string;
    organizationId: number;
    customerId: number | null;
    createdByUserId: string;
    name: string;
    tokenHash: string;
    tokenPrefix: string;
    expiresInDays: number | null;
    now: Date;
  }) {
    this.id = props.id;
    this.organizationId = props.organizationId;
    this.customerId = props.customerId;
    this.createdByUserId = props.createdByUserId;
    this.name = props.name;
    this.tokenHash = props.tokenHash;
    this.tokenPrefix = props.tokenPrefix;
    this.expiresAt = props.expiresInDays === null ? null : new Date(props.now.getTime() + props.expiresInDays * 24 * 60 * 60_000);
    this.createdAt = props.now;
    this.updatedAt = props.now;
  }

  get scope(): TenantScope {
    return { organizationId: this.organizationId, customerId: this.customerId };
  }

  isUsable(now: Date): boolean {
    return this.revokedAt === null && (this.expiresAt === null || this.expiresAt.getTime() > now.getTime());
  }

  rename(name: string, now: Date): void {
    this.name = name;
    this.updatedAt = now;
  }

  revoke(now: Date): void {
    this.revokedAt ??= now;
    this.updatedAt = now;
  }
}
