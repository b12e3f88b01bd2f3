import { AgentRegistration } from '../../domain/agent-access/agent-registration';
import { ConsentRequest } from '../../domain/agent-access/consent-request';
import { CONSENT_CODE_PREFIX } from '../../domain/agent-access/agent-access-limits';
import { POST_CLAIM_SCOPES } from '../../domain/agent-access/scopes';
import type { User } from '../../domain/identity/user';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import type { SecretTokens } from '../identity/ports';
import type { AgentRegistrationRepository, ConsentRequestRepository, IdJagClaims } from './ports';
import type { ClaimCredentialIssuer, ClaimInstructions } from './claim-credentials';

/**
 * First contact of an OAuth client (ID-JAG) with an account that has not approved it: a pending
 * service_auth registration bound to the account, and the consent request its owner decides at
 * POST /api/oauth/consent. Older pending requests of the same client and subject are superseded.
 */
export class RequestIdJagApproval {
  constructor(
    private readonly registrations: AgentRegistrationRepository,
    private readonly consents: ConsentRequestRepository,
    private readonly credentials: ClaimCredentialIssuer,
    private readonly transactions: TransactionRunner,
    private readonly secrets: SecretTokens,
    private readonly ids: IdGenerator,
  ) {}

  async execute(
    input: {
      claims: IdJagClaims;
      account: User;
      requestedScopes: string[];
      superseded: AgentRegistration[];
    },
    now: Date,
  ): Promise<ClaimInstructions> {
    const { claims, account } = input;
    const credentials = this.credentials.issue();
    const requestedScopes = input.requestedScopes.length > 0 ? input.requestedScopes : [...POST_CLAIM_SCOPES];
    const registration = new AgentRegistration({
      id: credentials.registrationId,
      type: 'service_auth',
      claimTokenHash: credentials.claimTokenHash,
      userCodeHash: credentials.userCodeHash,
      requestedScopes,
      now,
      idJag: { issuer: claims.issuer, subject: claims.subject, clientId: claims.clientId, userId: account.id },
    });
    await this.transactions.run(async (tx) => {
      for (const old of input.superseded.filter((r) => r.state(now) === 'pending')) {
        old.revoke(now);
        await this.registrations.save(old, tx);
      }
      await this.registrations.add(registration, tx);
      await this.consents.add(
        new ConsentRequest({
          id: this.ids.uuid(),
          code: this.secrets.generate(CONSENT_CODE_PREFIX),
          registrationId: registration.id,
          clientId: claims.clientId,
          userId: account.id,
          requestedScopes,
          now,
        }),
        tx,
      );
    });
    return this.credentials.instructions(registration, credentials, now);
  }
}
