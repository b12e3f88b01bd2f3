import { AppError } from '../shared/app-error';
import { isSubset } from './scopes';

export type ConsentStatus = 'pending' | 'accepted' | 'denied';

/** The user's decision as sent: accept, and an optional selection (null = everything requested). */
export interface ConsentDecision {
  readonly accept: boolean;
  readonly scopes: string[] | null;
}

/**
 * A connected OAuth app's request for access, waiting for its owner's decision. It comes to exist
 * when a trusted issuer's ID-JAG names an account that has not approved the client yet; the
 * decision can only narrow the scopes the client asked for.
 */
export class ConsentRequest {
  id: string;
  code: string;
  registrationId: string;
  clientId: string;
  /** The account the request is addressed to: only they may decide. */
  userId: string;
  requestedScopes: string[];
  grantedScopes: string[] = [];
  status: ConsentStatus = 'pending';
  decidedAt: Date | null = null;
  createdAt: Date;
  updatedAt: Date;
  version = 1;

  constructor(props: {
    id: string;
    code: string;
    registrationId: string;
    clientId: string;
    userId: string;
    requestedScopes: string[];
    now: Date;
  }) {
    this.id = props.id;
    this.code = props.code;
    this.registrationId = props.registrationId;
    this.clientId = props.clientId;
    this.userId = props.userId;
    this.requestedScopes = [...props.requestedScopes];
    this.createdAt = props.now;
    this.updatedAt = props.now;
  }

  /**
   * The spec's order after the code is found: consentCodeNotOwned, consentAlreadySettled,
   * emptyConsentSelection, consentScopeEscalation. Answers the scopes granted (none on deny).
   */
  decide(userId: string, decision: ConsentDecision, now: Date): string[] {
    if (userId !== this.userId) throw new AppError('consentCodeNotOwned');
    if (this.status !== 'pending') throw new AppError('consentAlreadySettled');
    let granted: string[] = [];
    if (decision.accept) {
      granted = decision.scopes ?? [...this.requestedScopes];
      if (granted.length === 0) throw new AppError('emptyConsentSelection');
      if (!isSubset(granted, this.requestedScopes)) throw new AppError('consentScopeEscalation');
    }
    this.status = decision.accept ? 'accepted' : 'denied';
    this.grantedScopes = granted;
    this.decidedAt = now;
    this.updatedAt = now;
    return granted;
  }
}
