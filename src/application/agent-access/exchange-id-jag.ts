import { AppError } from '../../domain/shared/app-error';
import { ID_JAG_MAX_AGE_SECONDS } from '../../domain/agent-access/agent-access-limits';
import { idJagGrantScopes } from '../../domain/agent-access/id-jag-grant';
import { isAgentScope, parseScopes } from '../../domain/agent-access/scopes';
import type { UserRepository } from '../identity/ports';
import type { AgentRegistrationRepository, ReplayGuard, TrustedIssuers } from './ports';
import type { AccessTokenMinter, MintedToken } from './mint-access-token';
import type { RequestIdJagApproval } from './request-id-jag-approval';
import type { JwtBearerRequest } from './jwt-bearer-request';

const invalidGrant = (description: string) => new AppError('invalid_grant', { error_description: description });

/**
 * An ID-JAG from a trusted issuer at the jwt-bearer grant. The identity provider's sign-in must be
 * at most max_age (3600 s) old; each assertion is single use. An approved client mints within its
 * grant; an account that has not approved the client yet answers interaction_required with a claim.
 */
export class ExchangeIdJag {
  constructor(
    private readonly trusted: TrustedIssuers,
    private readonly replays: ReplayGuard,
    private readonly registrations: AgentRegistrationRepository,
    private readonly users: UserRepository,
    private readonly approval: RequestIdJagApproval,
    private readonly minter: AccessTokenMinter,
  ) {}

  async execute(request: JwtBearerRequest, now: Date): Promise<MintedToken> {
    const check = await this.trusted.verifyIdJag(request.assertion, now);
    if (check.status === 'foreign') throw new AppError('issuer_not_enabled');
    if (check.status === 'invalid') throw invalidGrant('assertion invalid or expired');
    const claims = check.claims;
    if (!claims.authTime || now.getTime() - claims.authTime.getTime() > ID_JAG_MAX_AGE_SECONDS * 1000) {
      throw new AppError('login_required', { error_description: 'auth_time older than max_age 3600' });
    }
    if (request.clientId !== undefined && request.clientId !== claims.clientId) {
      throw invalidGrant('client_id does not match the assertion');
    }
    if (!(await this.replays.firstUse(claims.issuer, claims.jti, claims.expiresAt))) throw invalidGrant('assertion already used');

    const requested = parseScopes(request.scope ?? claims.scopes)?.filter(isAgentScope) ?? [];
    const matched = claims.email ? await this.users.findByEmail(claims.email) : null;
    const account = matched && !matched.hasPlatformFlag ? matched : null;
    const known = await this.registrations.findIdJag(claims.issuer, claims.subject, claims.clientId);
    const approved = known.find((registration) => registration.isApproved);
    if (approved) {
      const bound = approved.userId ? await this.users.findForSignIn(approved.userId) : null;
      const scopes = idJagGrantScopes({
        registration: approved,
        bound,
        matchedUserId: account?.id ?? null,
        requestedScopes: requested.length > 0 ? requested : null,
      });
      return this.minter.mint(approved, scopes, now);
    }
    if (!account) throw invalidGrant('no account matches the assertion');
    const claim = await this.approval.execute({ claims, account, requestedScopes: requested, superseded: known }, now);
    throw new AppError('interaction_required', { claim });
  }
}
