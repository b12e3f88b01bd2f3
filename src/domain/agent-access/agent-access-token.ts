import type { TenantScope } from '../shared/tenant-scope';
import { ACCESS_TOKEN_TTL_SECONDS } from './agent-access-limits';

/**
 * An opaque wsma_ access token: only the SHA-256 of the secret is stored. It carries a snapshot of
 * the scopes, the authorizing user and the tenant at minting; it lives 3600 seconds or until revoked.
 */
export class AgentAccessToken {
  id: string;
  registrationId: string;
  tokenHash: string;
  scopes: string[];
  /** Null for an unclaimed anonymous agent, or once the authorizing user is gone. */
  userId: string | null;
  organizationId: number | null;
  customerId: number | null;
  expiresAt: Date;
  revokedAt: Date | null = null;
  createdAt: Date;

  constructor(props: {
    id: string;
    registrationId: string;
    tokenHash: string;
    scopes: string[];
    userId: string | null;
    scope: TenantScope | null;
    now: Date;
  }) {
    this.id = props.id;
    this.registrationId = props.registrationId;
    this.tokenHash = props.tokenHash;
    this.scopes = [...props.scopes];
    this.userId = props.userId;
    this.organizationId = props.scope?.organizationId ?? null;
    this.customerId = props.scope?.customerId ?? null;
    this.expiresAt = new Date(props.now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000);
    this.createdAt = props.now;
  }

  get scope(): TenantScope | null {
    return this.organizationId === null ? null : { organizationId: this.organizationId, customerId: this.customerId };
  }

  isUsable(now: Date): boolean {
    return this.revokedAt === null && this.expiresAt.getTime() > now.getTime();
  }

  revoke(now: Date): void {
    this.revokedAt ??= now;
  }
}
