import type { TransactionRunner } from '../shared/transaction';
import type { AgentRegistration } from '../../domain/agent-access/agent-registration';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { UserRepository } from '../identity/ports';
import type { AgentRegistrationRepository } from './ports';
import type { ClaimLookup } from './claim-lookup';
import { granteeOf } from './grantee';
import { saveClaim } from './save-claim';

/**
 * POST /agent/identity/claim: a signed-in user (session or their API token) redeems an anonymous
 * agent's single-use claim token; the agent then mints api.read tokens for the user's organization
 * or single customer from its identity assertion.
 */
export class RedeemClaimToken {
  constructor(
    private readonly registrations: AgentRegistrationRepository,
    private readonly lookup: ClaimLookup,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
  ) {}

  async execute(actor: Actor, claimToken: string): Promise<AgentRegistration> {
    const grantee = await granteeOf(actor, this.users);
    const registration = await this.lookup.find({ claimToken });
    registration.redeemClaimToken(grantee, this.clock.now());
    await this.transactions.run((tx) => saveClaim(this.registrations, registration, tx));
    return registration;
  }
}
