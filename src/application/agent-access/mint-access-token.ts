import type { TransactionRunner } from '../shared/transaction';
import { AgentAccessToken } from '../../domain/agent-access/agent-access-token';
import {
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_TTL_SECONDS,
  IDENTITY_ASSERTION_TTL_SECONDS,
} from '../../domain/agent-access/agent-access-limits';
import type { AgentRegistration } from '../../domain/agent-access/agent-registration';
import type { IdGenerator } from '../shared/id-generator';
import type { SecretTokens } from '../identity/ports';
import type { AgentAccessTokenRepository, IdentityAssertions } from './ports';

export interface MintedToken {
  readonly accessToken: string;
  readonly expiresIn: number;
  readonly scopes: string[];
  /** A renewed identity assertion, for approved registrations that mint from one (not ID-JAG agents). */
  readonly identityAssertion?: string;
}

/** Mints an opaque wsma_ token (stored as its SHA-256) for a registration and a set of scopes. */
export class AccessTokenMinter {
  constructor(
    private readonly tokens: AgentAccessTokenRepository,
    private readonly assertions: IdentityAssertions,
    private readonly secrets: SecretTokens,
    private readonly ids: IdGenerator,
    private readonly transactions: TransactionRunner,
  ) {}

  async mint(registration: AgentRegistration, scopes: string[], now: Date): Promise<MintedToken> {
    const secret = this.secrets.generate(ACCESS_TOKEN_PREFIX);
    const approved = registration.isApproved;
    const token = new AgentAccessToken({
      id: this.ids.uuid(),
      registrationId: registration.id,
      tokenHash: this.secrets.hash(secret),
      scopes,
      userId: approved ? registration.userId : null,
      scope: approved ? registration.grantScope : null,
      now,
    });
    await this.transactions.run((tx) => this.tokens.add(token, tx));
    const minted: MintedToken = { accessToken: secret, expiresIn: ACCESS_TOKEN_TTL_SECONDS, scopes };
    if (!approved || registration.isIdJag) return minted;
    const expiresAt = new Date(now.getTime() + IDENTITY_ASSERTION_TTL_SECONDS * 1000);
    return { ...minted, identityAssertion: await this.assertions.sign(registration.id, expiresAt, now) };
  }
}
