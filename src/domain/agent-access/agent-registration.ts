import { AppError } from '../shared/app-error';
import type { TenantScope } from '../shared/tenant-scope';
import { CLAIM_POLL_INTERVAL_SECONDS, CLAIM_WINDOW_MS } from './agent-access-limits';
import { POST_CLAIM_SCOPES, PRE_CLAIM_SCOPES } from './scopes';

export type RegistrationType = 'anonymous' | 'service_auth';
/** Stored states; `expired` is derived from the claim window (see `state`). */
export type RegistrationStatus = 'active' | 'pending' | 'authorized' | 'claimed' | 'revoked';
export type RegistrationState = RegistrationStatus | 'expired';

/** The signed-in user who claims or confirms; `scope` is null when their access spans tenants. */
export interface Grantee {
  readonly userId: string;
  readonly email: string;
  readonly scope: TenantScope | null;
}

/** Where an ID-JAG registration comes from: the trusted issuer's subject, its OAuth client, the matched account. */
export interface IdJagOrigin {
  readonly issuer: string;
  readonly subject: string;
  readonly clientId: string;
  readonly userId: string;
}

export type PollOutcome = 'granted' | 'authorization_pending' | 'slow_down';

interface RegistrationProps {
  id: string;
  type: RegistrationType;
  claimTokenHash: string;
  userCodeHash: string;
  now: Date;
  loginHint?: string | null;
  requestedScopes?: string[];
  idJag?: IdJagOrigin;
}

/**
 * An agent's registration and its claim (States and transitions, agent rows). Anonymous: created
 * active with tools.public; a user's claim upgrades it to api.read. service_auth: created pending;
 * the bound user's confirmation authorizes it. Unclaimed for 24 hours: expired. Any: revoked.
 */
export class AgentRegistration {
  id: string;
  type: RegistrationType;
  status: RegistrationStatus;
  scopes: string[];
  requestedScopes: string[];
  loginHint: string | null;
  clientId: string | null;
  issuer: string | null;
  subject: string | null;
  /** The bound account before confirmation (ID-JAG), then the authorizing user. */
  userId: string | null;
  organizationId: number | null = null;
  customerId: number | null = null;
  claimTokenHash: string;
  userCodeHash: string;
  claimExpiresAt: Date;
  claimTokenRedeemedAt: Date | null = null;
  lastPolledAt: Date | null = null;
  claimedAt: Date | null = null;
  revokedAt: Date | null = null;
  createdAt: Date;
  updatedAt: Date;
  version = 1;

  constructor(props: RegistrationProps) {
    this.id = props.id;
    this.type = props.type;
    this.status = props.type === 'anonymous' ? 'active' : 'pending';
    this.scopes = props.type === 'anonymous' ? [...PRE_CLAIM_SCOPES] : [];
    this.requestedScopes = props.requestedScopes ?? [...POST_CLAIM_SCOPES];
    this.loginHint = props.loginHint ? props.loginHint.trim().toLowerCase() : null;
    this.clientId = props.idJag?.clientId ?? null;
    this.issuer = props.idJag?.issuer ?? null;
    this.subject = props.idJag?.subject ?? null;
    this.userId = props.idJag?.userId ?? null;
    this.claimTokenHash = props.claimTokenHash;
    this.userCodeHash = props.userCodeHash;
    this.claimExpiresAt = new Date(props.now.getTime() + CLAIM_WINDOW_MS);
    this.createdAt = props.now;
    this.updatedAt = props.now;
  }

  get isIdJag(): boolean {
    return this.issuer !== null;
  }

  /** Claimed (anonymous) or authorized (service_auth): a user stands behind the agent. */
  get isApproved(): boolean {
    return this.status === 'claimed' || this.status === 'authorized';
  }

  /** The tenant the agent reads in once approved. */
  get grantScope(): TenantScope | null {
    return this.organizationId === null ? null : { organizationId: this.organizationId, customerId: this.customerId };
  }

  state(now: Date): RegistrationState {
    const unclaimed = this.status === 'active' || this.status === 'pending';
    return unclaimed && now.getTime() >= this.claimExpiresAt.getTime() ? 'expired' : this.status;
  }

  /** Anonymous: a signed-in user claims the agent (api.read in their organization or single customer). */
  claim(grantee: Grantee, now: Date): void {
    if (this.type !== 'anonymous') throw new AppError('invalid_claim_token');
    const scope = this.checkClaimant(grantee, now);
    this.approve('claimed', grantee.userId, scope, [...POST_CLAIM_SCOPES], now);
  }

  /** POST /agent/identity/claim: the claim, redeeming the single-use claim token. */
  redeemClaimToken(grantee: Grantee, now: Date): void {
    this.claim(grantee, now);
    this.claimTokenRedeemedAt = now;
  }

  /** service_auth: the bound signed-in user confirms (ID-JAG registrations go through the OAuth consent step). */
  confirm(grantee: Grantee, now: Date): void {
    if (this.type !== 'service_auth' || this.isIdJag) throw new AppError('invalid_claim_token');
    const scope = this.checkClaimant(grantee, now);
    this.approve('authorized', grantee.userId, scope, [...POST_CLAIM_SCOPES], now);
  }

  /** The OAuth consent accepted for an ID-JAG registration; anything but a live pending request lost a race. */
  acceptConsent(grantee: Grantee, scopes: string[], now: Date): void {
    const live = this.isIdJag && this.state(now) === 'pending' && this.userId === grantee.userId;
    if (!live || !grantee.scope) throw new AppError('consentForwardRejected');
    this.approve('authorized', grantee.userId, grantee.scope, scopes, now);
  }

  denyConsent(now: Date): void {
    if (!this.isIdJag || this.state(now) !== 'pending') throw new AppError('consentForwardRejected');
    this.revoke(now);
  }

  /** One poll of the claim grant, at most every 5 seconds; the claim token pays out once. */
  poll(now: Date): PollOutcome {
    const state = this.state(now);
    if (state === 'revoked' || state === 'expired' || this.claimTokenRedeemedAt !== null) {
      throw new AppError('expired_token');
    }
    const tooSoon = this.lastPolledAt !== null && now.getTime() - this.lastPolledAt.getTime() < CLAIM_POLL_INTERVAL_SECONDS * 1000;
    this.lastPolledAt = now;
    this.updatedAt = now;
    if (tooSoon) return 'slow_down';
    if (state === 'active' || state === 'pending') return 'authorization_pending';
    this.claimTokenRedeemedAt = now;
    return 'granted';
  }

  /** What a jwt-bearer exchange may mint now: tools.public before the claim, the grant after it. */
  mintableScopes(now: Date): string[] {
    const state = this.state(now);
    if (state === 'revoked') throw new AppError('invalid_grant', { error_description: 'registration revoked' });
    if (state === 'expired') throw new AppError('invalid_grant', { error_description: 'registration expired' });
    if (state === 'pending') throw new AppError('invalid_grant', { error_description: 'registration not authorized' });
    return [...this.scopes];
  }

  revoke(now: Date): void {
    if (this.status === 'revoked') return;
    this.status = 'revoked';
    this.revokedAt = now;
    this.updatedAt = now;
  }

  /**
   * May this person claim or confirm now? Binding first (a stranger learns nothing of the state),
   * then the claim window and the state. Answers the tenant the approval resolves to.
   */
  checkClaimant(grantee: Grantee, now: Date): TenantScope {
    if (this.isIdJag && this.userId !== grantee.userId) throw new AppError('invalid_claim_token');
    if (this.loginHint !== null && this.loginHint !== grantee.email.trim().toLowerCase()) {
      throw new AppError('invalid_claim_token');
    }
    if (!grantee.scope) throw new AppError('invalid_claim_token');
    const state = this.state(now);
    if (state === 'revoked') throw new AppError('invalid_claim_token');
    if (state === 'expired') throw new AppError('claim_expired');
    if (state === 'claimed' || state === 'authorized') throw new AppError('claimed_or_in_flight');
    return grantee.scope;
  }

  private approve(status: 'claimed' | 'authorized', userId: string, scope: TenantScope, scopes: string[], now: Date): void {
    this.status = status;
    this.userId = userId;
    this.organizationId = scope.organizationId;
    this.customerId = scope.customerId;
    this.scopes = scopes;
    this.claimedAt = now;
    this.updatedAt = now;
  }
}
