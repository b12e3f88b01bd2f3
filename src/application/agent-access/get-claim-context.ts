import type { AgentRegistration } from '../../domain/agent-access/agent-registration';
import type { ConsentRequest } from '../../domain/agent-access/consent-request';
import { requireUserSession, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { UserRepository } from '../identity/ports';
import type { ConsentRequestRepository } from './ports';
import type { ClaimLookup, ClaimReference } from './claim-lookup';
import { granteeOf } from './grantee';

export interface ClaimContext {
  readonly registration: AgentRegistration;
  /** For an OAuth client (ID-JAG): the consent its owner decides at POST /api/oauth/consent. */
  readonly consent: ConsentRequest | null;
}

/**
 * GET /api/agent-claim/context: what the signed-in user is asked to approve. Refuses exactly as
 * the confirmation would (wrong user, expired window, already claimed), without changing anything.
 */
export class GetClaimContext {
  constructor(
    private readonly lookup: ClaimLookup,
    private readonly consents: ConsentRequestRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, reference: ClaimReference): Promise<ClaimContext> {
    requireUserSession(actor);
    const grantee = await granteeOf(actor, this.users);
    const registration = await this.lookup.find(reference);
    registration.checkClaimant(grantee, this.clock.now());
    const consent = registration.isIdJag ? await this.consents.findByRegistration(registration.id) : null;
    return { registration, consent };
  }
}
