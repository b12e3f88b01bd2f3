import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import { AgentRegistration } from '../../domain/agent-access/agent-registration';
import { POST_CLAIM_SCOPES, PRE_CLAIM_SCOPES } from '../../domain/agent-access/scopes';
import type { Clock } from '../shared/clock';
import type { RateLimiter } from '../shared/rate-limiter';
import type { PlatformSettingsRepository } from '../identity/ports';
import type { AgentEndpoints, AgentRegistrationRepository, IdentityAssertions } from './ports';
import type { ClaimCredentialIssuer, ClaimInstructions } from './claim-credentials';
import { AGENT_IDENTITY_LIMIT, enforceRateLimit } from './rate-limits';

export interface RegisterAgentInput {
  readonly type?: unknown;
  readonly login_hint?: unknown;
}

export type RegisteredAgent =
  | (ClaimInstructions & {
      type: 'anonymous';
      status: 'active';
      identity_assertion: string;
      pre_claim_scopes: string[];
      post_claim_scopes: string[];
      token_endpoint: string;
    })
  | (ClaimInstructions & { type: 'service_auth'; status: 'pending'; login_hint: string | null; token_endpoint: string });

/**
 * POST /agent/identity. Anonymous: active at once with tools.public, an EdDSA identity assertion
 * valid for the 24-hour claim window, and a single-use claim token. service_auth: pending, nothing
 * minted until the bound user confirms. 30 requests per minute per caller.
 */
export class RegisterAgent {
  constructor(
    private readonly registrations: AgentRegistrationRepository,
    private readonly assertions: IdentityAssertions,
    private readonly credentials: ClaimCredentialIssuer,
    private readonly settings: PlatformSettingsRepository,
    private readonly limiter: RateLimiter,
    private readonly endpoints: AgentEndpoints,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
  ) {}

  async execute(input: RegisterAgentInput, callerKey: string): Promise<RegisteredAgent> {
    await enforceRateLimit(this.limiter, AGENT_IDENTITY_LIMIT, callerKey);
    const { type, login_hint: loginHint } = input;
    if (type !== 'anonymous' && type !== 'service_auth')
      throw new AppError('invalid_request', {}, 'type must be anonymous or service_auth');
    if (loginHint !== undefined && (typeof loginHint !== 'string' || loginHint.trim() === '' || loginHint.length > 254)) {
      throw new AppError('invalid_request', {}, 'login_hint must be the email address of the account to bind');
    }
    if (type === 'service_auth' && !(await this.settings.get()).serviceAuthEnabled) throw new AppError('service_auth_not_enabled');

    const now = this.clock.now();
    const credentials = this.credentials.issue();
    const registration = new AgentRegistration({
      id: credentials.registrationId,
      type,
      claimTokenHash: credentials.claimTokenHash,
      userCodeHash: credentials.userCodeHash,
      loginHint: type === 'service_auth' ? ((loginHint as string | undefined) ?? null) : null,
      now,
    });
    await this.transactions.run((tx) => this.registrations.add(registration, tx));
    const instructions = this.credentials.instructions(registration, credentials, now);
    if (type === 'service_auth') {
      return { ...instructions, type, status: 'pending', login_hint: registration.loginHint, token_endpoint: this.endpoints.tokenEndpoint };
    }
    return {
      ...instructions,
      type,
      status: 'active',
      identity_assertion: await this.assertions.sign(registration.id, registration.claimExpiresAt, now),
      pre_claim_scopes: [...PRE_CLAIM_SCOPES],
      post_claim_scopes: [...POST_CLAIM_SCOPES],
      token_endpoint: this.endpoints.tokenEndpoint,
    };
  }
}
