import { AppError } from '../../domain/shared/app-error';
import type { User } from '../../domain/identity/user';
import type { RateLimitRule, RateLimiter } from '../shared/rate-limiter';
import type { AuditTrail } from '../audit/ports';
import type { TransactionRunner } from '../shared/transaction';
import type { OrganizationRepository, PasswordHasher, UserRepository } from './ports';
import type { SessionIssuer } from './sessions';
import type { SsoConnectionRepository } from './sso-ports';

export type SignInResult =
  | { kind: 'signedIn'; token: string; user: User }
  /** Password accepted; the second factor completes the sign-in with this challenge token. */
  | { kind: 'twoFactorRequired'; challengeToken: string };

/** A hash verified against when the email is unknown, so both paths cost the same. */
const DECOY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$R4zflttOT8HqwJ3A7sxcRg$kqKY5n8qzt2sZU+HcLdXROX0JJhJQ61Vd6IMSVSvqp0';

/** Password guessing is throttled per account: 10 attempts a minute, across every instance. */
export const SIGN_IN_LIMIT: RateLimitRule = { name: 'sign-in', limit: 10, windowSeconds: 60 };

export class SignIn {
  constructor(
    private readonly users: UserRepository,
    private readonly organizations: OrganizationRepository,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionIssuer,
    private readonly limiter: RateLimiter,
    private readonly transactions: TransactionRunner,
    private readonly audit?: AuditTrail,
    private readonly ssoConnections?: SsoConnectionRepository,
  ) {}

  async execute(input: { email: string; password: string }): Promise<SignInResult> {
    const attempt = await this.limiter.hit(SIGN_IN_LIMIT, input.email.trim().toLowerCase());
    if (!attempt.allowed) throw new AppError('rateLimited', { retryAfter: attempt.retryAfterSeconds });
    const user = await this.users.findByEmail(input.email);
    const valid = await this.passwords.verify(user?.passwordHash ?? DECOY_HASH, input.password);
    if (!user || !valid) {
      // A wrong password for a known account is an entry of its organization's log; an unknown
      // address belongs to no organization.
      const audit = this.audit;
      if (user && audit) {
        await this.transactions.run((tx) =>
          audit.append(
            {
              organizationId: user.organizationId,
              customerId: user.customerId ?? null,
              actorType: 'anonymous',
              userId: null,
              actorLabel: user.email,
              credentialType: null,
              resourceType: 'user',
              resourceId: user.id,
              action: 'signInFailed',
            },
            tx,
          ),
        );
      }
      throw new AppError('invalidCredentials');
    }
    if (!user.isActive) throw new AppError('accountDeactivated');
    // "SSO only": the organization's users sign in through its provider, but for the break-glass admin.
    const sso = await this.ssoConnections?.findByOrganization(user.organizationId);
    if (sso && !sso.allowsPasswordSignIn(user.id) && !user.hasPlatformFlag) throw new AppError('ssoPasswordSignInDisabled');
    const organization = await this.organizations.findById(user.organizationId);
    if (organization?.status === 'deleted' && !user.hasPlatformFlag) throw new AppError('organizationSuspended');
    if (user.twoFactorEnabled) {
      const { token } = await this.sessions.challenge(user.id);
      return { kind: 'twoFactorRequired', challengeToken: token };
    }
    const { token } = await this.sessions.signIn(user);
    return { kind: 'signedIn', token, user };
  }
}
