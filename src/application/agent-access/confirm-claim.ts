import type { TransactionRunner } from '../shared/transaction';
import type { AgentRegistration } from '../../domain/agent-access/agent-registration';
import { requireUserSession, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { UserRepository } from '../identity/ports';
import type { AgentRegistrationRepository } from './ports';
import type { ClaimLookup, ClaimReference } from './claim-lookup';
import { granteeOf } from './grantee';
import { saveClaim } from './save-claim';

/**
 * POST /api/agent-claim/confirm: the signed-in user approves the agent named by the claim URL's
 * code. service_auth becomes authorized (the agent's next poll yields api.read); an anonymous agent
 * is claimed for the user's organization or single customer.
 */
export class ConfirmClaim {
  constructor(
    private readonly registrations: AgentRegistrationRepository,
    private readonly lookup: ClaimLookup,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
  ) {}

  async execute(actor: Actor, reference: ClaimReference): Promise<AgentRegistration> {
    requireUserSession(actor);
    const grantee = await granteeOf(actor, this.users);
    const registration = await this.lookup.find(reference);
    const now = this.clock.now();
    if (registration.type === 'anonymous') registration.claim(grantee, now);
    else registration.confirm(grantee, now);
    await this.transactions.run((tx) => saveClaim(this.registrations, registration, tx));
    return registration;
  }
}
