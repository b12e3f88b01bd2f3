import type { TransactionRunner } from '../shared/transaction';
import { AppError, isAppError } from '../../domain/shared/app-error';
import { CLAIM_TOKEN_PREFIX } from '../../domain/agent-access/agent-access-limits';
import type { Clock } from '../shared/clock';
import type { SecretTokens } from '../identity/ports';
import type { AgentRegistrationRepository } from './ports';
import type { AccessTokenMinter, MintedToken } from './mint-access-token';

/**
 * The claim grant (RFC 8628 device-code polling): authorization_pending until a person approves,
 * slow_down below the 5-second interval, expired_token once the claim window closed, the
 * registration was revoked or the claim token already paid out; then one token with the grant.
 */
export class PollClaim {
  constructor(
    private readonly registrations: AgentRegistrationRepository,
    private readonly minter: AccessTokenMinter,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
  ) {}

  async execute(claimToken: string): Promise<MintedToken> {
    const registration = claimToken.startsWith(CLAIM_TOKEN_PREFIX)
      ? await this.registrations.findByClaimTokenHash(this.secrets.hash(claimToken))
      : null;
    if (!registration) throw new AppError('invalid_grant', { error_description: 'unknown claim token' });
    const now = this.clock.now();
    const outcome = registration.poll(now);
    try {
      await this.transactions.run((tx) => this.registrations.save(registration, tx));
    } catch (error) {
      if (isAppError(error) && error.code === 'conflict') throw new AppError('slow_down');
      throw error;
    }
    if (outcome === 'slow_down') throw new AppError('slow_down', { interval: 5 });
    if (outcome === 'authorization_pending') throw new AppError('authorization_pending');
    return this.minter.mint(registration, [...registration.scopes], now);
  }
}
