import { AppError } from '../../domain/shared/app-error';
import { isOrgAdmin, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { AgentAccessTokenRepository, AgentRegistrationRepository, CredentialCacheInvalidator } from './ports';
import { connectionClientId } from './oauth-connection';

/**
 * DELETE /api/oauth/connections/{clientId}: disconnects an app. Its registrations in the caller's
 * view are revoked with every token they minted; the app must be approved again to come back.
 */
export class DeleteConnection {
  constructor(
    private readonly registrations: AgentRegistrationRepository,
    private readonly tokens: AgentAccessTokenRepository,
    private readonly transactions: TransactionRunner,
    private readonly cache: CredentialCacheInvalidator,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, clientId: string | undefined): Promise<void> {
    if (actor.kind === 'agent' || actor.userId === null) throw new AppError('nonUserSessionForbidden');
    if (clientId === undefined || clientId.trim() === '') throw new AppError('missingClientId');
    const approved = await this.registrations.listApproved(actor.scope, isOrgAdmin(actor) ? null : actor.userId);
    const matching = approved.filter((registration) => connectionClientId(registration) === clientId.trim());
    if (matching.length === 0) throw new AppError('unknownOauthConnection');
    const now = this.clock.now();
    await this.transactions.run(async (tx) => {
      for (const registration of matching) {
        registration.revoke(now);
        await this.registrations.save(registration, tx);
      }
      await this.tokens.revokeForRegistrations(
        matching.map((r) => r.id),
        now,
        tx,
      );
    });
    this.cache.invalidate();
  }
}
