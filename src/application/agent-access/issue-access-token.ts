import { AppError } from '../../domain/shared/app-error';
import type { RateLimiter } from '../shared/rate-limiter';
import type { ExchangeAssertion } from './exchange-assertion';
import type { PollClaim } from './poll-claim';
import type { MintedToken } from './mint-access-token';
import { AGENT_TOKEN_LIMIT, enforceRateLimit } from './rate-limits';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** The claim grant: RFC 8628's device-code grant type, the claim token standing for the device code. */
export const CLAIM_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * POST /oauth2/token: 60 requests per minute per caller, then the grant. Each parameter is a
 * single string (RFC 6749 section 3.2); a missing grant_type, assertion or claim token is invalid_request.
 */
export class IssueAccessToken {
  constructor(
    private readonly exchange: ExchangeAssertion,
    private readonly pollClaim: PollClaim,
    private readonly limiter: RateLimiter,
  ) {}

  async execute(params: Record<string, string>, callerKey: string): Promise<MintedToken> {
    await enforceRateLimit(this.limiter, AGENT_TOKEN_LIMIT, callerKey);
    const grantType = params.grant_type;
    if (!grantType) throw new AppError('invalid_request', {}, 'grant_type is required');
    if (grantType === JWT_BEARER_GRANT) {
      if (!params.assertion) throw new AppError('invalid_request', {}, 'assertion is required');
      return this.exchange.execute({ assertion: params.assertion, clientId: params.client_id, scope: params.scope });
    }
    if (grantType === CLAIM_GRANT) {
      const claimToken = params.claim_token ?? params.device_code;
      if (!claimToken) throw new AppError('invalid_request', {}, 'claim_token is required');
      return this.pollClaim.execute(claimToken);
    }
    throw new AppError('unsupported_grant_type');
  }
}
