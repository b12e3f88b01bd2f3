import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { User } from '../../domain/identity/user';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { SecretTokens, SessionRepository, UserRepository } from './ports';
import type { SessionIssuer } from './sessions';
import { signedInUser, type SecondFactorVerifier } from './two-factor';

export type VerifyTotpResult =
  /** A password sign-in completed by its second factor: a new, stepped-up session. */
  | { kind: 'signedIn'; token: string; user: User }
  /** A signed-in session stepped up for five minutes (or enrolment confirmed). */
  | { kind: 'steppedUp'; user: User };

/**
 * POST /api/auth/two-factor/verify-totp. With a sign-in challenge it completes the sign-in; with a
 * signed-in session it is the step-up that token mutations require.
 */
export class VerifyTotp {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly issuer: SessionIssuer,
    private readonly verifier: SecondFactorVerifier,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
  ) {}

  async execute(input: { code: string; actor?: Actor | null; challengeToken?: string | null }): Promise<VerifyTotpResult> {
    if (input.actor?.kind === 'session') {
      const user = await signedInUser(this.users, input.actor);
      await this.verifier.verify(user, input.code);
      const session = await this.sessions.findById(input.actor.sessionId!);
      if (!session) throw new AppError('unauthorized');
      session.markSteppedUp(this.clock.now());
      await this.transactions.run((tx) => this.sessions.save(session, tx));
      return { kind: 'steppedUp', user };
    }
    const challenge = input.challengeToken ? await this.sessions.findByTokenHash(this.secrets.hash(input.challengeToken)) : null;
    if (!challenge || challenge.kind !== 'twoFactorChallenge' || challenge.isExpired(this.clock.now())) {
      throw new AppError('twoFactorChallengeMissing');
    }
    const user = await this.users.findForSignIn(challenge.userId);
    if (!user || !user.isActive) throw new AppError('twoFactorChallengeMissing');
    await this.verifier.verify(user, input.code);
    await this.transactions.run((tx) => this.sessions.remove(challenge, tx));
    const { token } = await this.issuer.signIn(user, true);
    return { kind: 'signedIn', token, user };
  }
}
