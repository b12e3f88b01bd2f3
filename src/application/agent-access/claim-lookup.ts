import { AppError } from '../../domain/shared/app-error';
import { CLAIM_TOKEN_PREFIX } from '../../domain/agent-access/agent-access-limits';
import type { AgentRegistration } from '../../domain/agent-access/agent-registration';
import type { SecretTokens } from '../identity/ports';
import type { AgentRegistrationRepository, UserCodes } from './ports';

/** How a person names the registration to claim: the code from the claim URL, or the claim token itself. */
export interface ClaimReference {
  readonly userCode?: string | undefined;
  readonly claimToken?: string | undefined;
}

/** Finds the registration; an unknown or malformed code or token (of the wrong type) is invalid_claim_token. */
export class ClaimLookup {
  constructor(
    private readonly registrations: AgentRegistrationRepository,
    private readonly secrets: SecretTokens,
    private readonly codes: UserCodes,
  ) {}

  async find(reference: ClaimReference): Promise<AgentRegistration> {
    let found: AgentRegistration | null = null;
    if (reference.claimToken !== undefined) {
      if (reference.claimToken.startsWith(CLAIM_TOKEN_PREFIX)) {
        found = await this.registrations.findByClaimTokenHash(this.secrets.hash(reference.claimToken));
      }
    } else if (reference.userCode !== undefined) {
      const code = this.codes.normalize(reference.userCode);
      if (code) found = await this.registrations.findByUserCodeHash(this.secrets.hash(code));
    }
    if (!found) throw new AppError('invalid_claim_token');
    return found;
  }
}
