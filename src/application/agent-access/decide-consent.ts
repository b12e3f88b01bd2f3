import { AppError, isAppError } from '../../domain/shared/app-error';
import type { ConsentRequest } from '../../domain/agent-access/consent-request';
import { parseScopes } from '../../domain/agent-access/scopes';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { UserRepository } from '../identity/ports';
import type { AgentRegistrationRepository, ConsentRequestRepository } from './ports';
import { granteeOf } from './grantee';

/** The body as sent: every field is checked here, in the spec's order. */
export interface ConsentInput {
  readonly consent_code?: unknown;
  readonly accept?: unknown;
  readonly scopes?: unknown;
}

/** A selection as a list of scope names; anything that is not a scope name can only be an escalation. */
function selection(scopes: unknown): string[] | null {
  if (scopes === undefined || scopes === null) return null;
  if (typeof scopes === 'string') return parseScopes(scopes);
  if (Array.isArray(scopes)) return parseScopes(scopes.map((scope) => (typeof scope === 'string' ? scope : JSON.stringify(scope))));
  return [JSON.stringify(scopes)];
}

/**
 * POST /api/oauth/consent, session only. Checks run in the spec's order: unauthorized,
 * invalidConsentDecision, missingConsentCode, unknownConsentCode, consentCodeNotOwned,
 * consentAlreadySettled, emptyConsentSelection, consentScopeEscalation; then the decision is
 * forwarded to the waiting registration, which refuses (consentForwardRejected) only if it expired,
 * was revoked or settled concurrently. Accepting authorizes it: the client's next poll gets a token.
 */
export class DecideConsent {
  constructor(
    private readonly consents: ConsentRequestRepository,
    private readonly registrations: AgentRegistrationRepository,
    private readonly users: UserRepository,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: ConsentInput): Promise<ConsentRequest> {
    if (actor.kind !== 'session' || actor.userId === null) throw new AppError('unauthorized');
    if (typeof input.accept !== 'boolean') throw new AppError('invalidConsentDecision');
    if (typeof input.consent_code !== 'string' || input.consent_code.trim() === '') throw new AppError('missingConsentCode');
    const consent = await this.consents.findByCode(input.consent_code.trim());
    if (!consent) throw new AppError('unknownConsentCode');
    const now = this.clock.now();
    const granted = consent.decide(actor.userId, { accept: input.accept, scopes: selection(input.scopes) }, now);

    const grantee = await granteeOf(actor, this.users);
    const registration = await this.registrations.findById(consent.registrationId);
    if (!registration) throw new AppError('consentForwardRejected');
    if (input.accept) registration.acceptConsent(grantee, granted, now);
    else registration.denyConsent(now);
    try {
      await this.transactions.run(async (tx) => {
        await this.consents.save(consent, tx);
        await this.registrations.save(registration, tx);
      });
    } catch (error) {
      if (isAppError(error) && error.code === 'conflict') throw new AppError('consentForwardRejected');
      throw error;
    }
    return consent;
  }
}
