import { CLAIM_TOKEN_PREFIX, REGISTRATION_ID_PREFIX } from '../../domain/agent-access/agent-access-limits';
import { CLAIM_POLL_INTERVAL_SECONDS, CLAIM_WINDOW_MS } from '../../domain/agent-access/agent-access-limits';
import type { AgentRegistration } from '../../domain/agent-access/agent-registration';
import type { SecretTokens } from '../identity/ports';
import type { AgentEndpoints, UserCodes } from './ports';

/** The secrets a new registration hands out once: only their digests are stored. */
export interface ClaimCredentials {
  readonly registrationId: string;
  readonly claimToken: string;
  readonly claimTokenHash: string;
  readonly userCode: string;
  readonly userCodeHash: string;
}

/** What an agent needs to have a person approve it, and to poll for the outcome. */
export interface ClaimInstructions {
  readonly registration_id: string;
  readonly claim_token: string;
  readonly user_code: string;
  readonly claim_url: string;
  readonly verification_uri: string;
  readonly verification_uri_complete: string;
  readonly interval: number;
  readonly expires_in: number;
}

export class ClaimCredentialIssuer {
  constructor(
    private readonly secrets: SecretTokens,
    private readonly codes: UserCodes,
    private readonly endpoints: AgentEndpoints,
  ) {}

  issue(): ClaimCredentials {
    const claimToken = this.secrets.generate(CLAIM_TOKEN_PREFIX);
    const userCode = this.codes.generate();
    return {
      registrationId: this.secrets.generate(REGISTRATION_ID_PREFIX),
      claimToken,
      claimTokenHash: this.secrets.hash(claimToken),
      userCode,
      userCodeHash: this.secrets.hash(this.codes.normalize(userCode)!),
    };
  }

  instructions(registration: AgentRegistration, credentials: ClaimCredentials, now: Date): ClaimInstructions {
    const complete = `${this.endpoints.claimPage}?user_code=${encodeURIComponent(credentials.userCode)}`;
    const remaining = Math.max(0, registration.claimExpiresAt.getTime() - now.getTime());
    return {
      registration_id: registration.id,
      claim_token: credentials.claimToken,
      user_code: credentials.userCode,
      claim_url: complete,
      verification_uri: this.endpoints.claimPage,
      verification_uri_complete: complete,
      interval: CLAIM_POLL_INTERVAL_SECONDS,
      expires_in: Math.round(Math.min(remaining, CLAIM_WINDOW_MS) / 1000),
    };
  }
}
