import type { TransactionRunner } from '../shared/transaction';
import { ACCESS_TOKEN_PREFIX } from '../../domain/agent-access/agent-access-limits';
import type { Clock } from '../shared/clock';
import type { SecretTokens } from '../identity/ports';
import type { AgentAccessTokenRepository, AgentRegistrationRepository, CredentialCacheInvalidator, IdentityAssertions } from './ports';

/**
 * POST /oauth2/revoke (RFC 7009): a wsma_ access token is revoked; an identity assertion of this
 * service revokes its whole registration and every token minted from it. Unknown, malformed or
 * already revoked tokens change nothing: the answer is the same either way.
 */
export class RevokeToken {
  constructor(
    private readonly tokens: AgentAccessTokenRepository,
    private readonly registrations: AgentRegistrationRepository,
    private readonly assertions: IdentityAssertions,
    private readonly secrets: SecretTokens,
    private readonly cache: CredentialCacheInvalidator,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
  ) {}

  async execute(token: string | undefined): Promise<void> {
    if (!token || token.length > 4096) return;
    const now = this.clock.now();
    if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
      const found = await this.tokens.findByHash(this.secrets.hash(token));
      if (found && found.revokedAt === null) {
        found.revoke(now);
        await this.transactions.run((tx) => this.tokens.revoke(found, tx));
      }
    } else {
      const check = await this.assertions.verify(token, now);
      const registration = check.status === 'valid' ? await this.registrations.findById(check.claims.registrationId) : null;
      if (registration && registration.status !== 'revoked') {
        registration.revoke(now);
        await this.transactions.run(async (tx) => {
          await this.registrations.save(registration, tx);
          await this.tokens.revokeForRegistrations([registration.id], now, tx);
        });
      }
    }
    this.cache.invalidate();
  }
}
