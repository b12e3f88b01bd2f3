import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { User } from '../../domain/identity/user';
import { requireUserSession, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { PasswordHasher, SecretTokens, TotpService, UserRepository } from './ports';

export const BACKUP_CODE_COUNT = 10;

/**
 * Checks a second-factor code for a user: a TOTP code or one unused backup code. Records the
 * outcome on the user (failure counter, 15-minute lock after the fifth wrong code) and throws
 * invalidTwoFactorCode or mfa_step_up_locked when refused.
 */
export class SecondFactorVerifier {
  constructor(
    private readonly users: UserRepository,
    private readonly totp: TotpService,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
  ) {}

  async verify(user: User, code: string): Promise<void> {
    const now = this.clock.now();
    if (!user.totpSecret) throw new AppError('twoFactorNotEnabled');
    user.assertCanAttemptCode(now);
    const normalized = code.replace(/\s+/g, '');
    const accepted =
      this.totp.verify(user.totpSecret, normalized, now) ||
      (user.twoFactorEnabled && user.consumeBackupCode(this.secrets.hash(normalized.toLowerCase()), now));
    if (accepted) {
      user.codeAccepted(now);
      await this.transactions.run((tx) => this.users.save(user, tx));
      return;
    }
    user.codeRejected(now);
    await this.transactions.run((tx) => this.users.save(user, tx));
    user.assertCanAttemptCode(now);
    throw new AppError('invalidTwoFactorCode', { attemptsRemaining: 5 - user.mfaFailedAttempts });
  }
}

/** POST /api/auth/two-factor/enable: starts enrolment; the first verified code turns it on. */
export class EnableTwoFactor {
  constructor(
    private readonly users: UserRepository,
    private readonly passwords: PasswordHasher,
    private readonly totp: TotpService,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { password: string }): Promise<{ totpURI: string; backupCodes: string[] }> {
    const user = await signedInUser(this.users, actor);
    if (!(await this.passwords.verify(user.passwordHash, input.password))) throw new AppError('invalidCredentials');
    const secret = this.totp.generateSecret();
    const backupCodes = Array.from({ length: BACKUP_CODE_COUNT }, () => this.backupCode());
    user.beginTwoFactorEnrolment(
      secret,
      backupCodes.map((c) => this.secrets.hash(c)),
      this.clock.now(),
    );
    await this.transactions.run((tx) => this.users.save(user, tx));
    return { totpURI: this.totp.uri(secret, user.email), backupCodes };
  }

  private backupCode(): string {
    const raw = this.secrets
      .generate('')
      .replace(/[^a-z0-9]/gi, '')
      .toLowerCase()
      .slice(0, 10);
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  }
}

/** POST /api/auth/two-factor/disable: needs the password; the organization's MFA flags still apply. */
export class DisableTwoFactor {
  constructor(
    private readonly users: UserRepository,
    private readonly passwords: PasswordHasher,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { password: string }): Promise<void> {
    const user = await signedInUser(this.users, actor);
    if (!(await this.passwords.verify(user.passwordHash, input.password))) throw new AppError('invalidCredentials');
    user.resetTwoFactor(this.clock.now());
    await this.transactions.run((tx) => this.users.save(user, tx));
  }
}

/** The person behind a signed-in session, reloaded for this unit of work. */
export async function signedInUser(users: UserRepository, actor: Actor): Promise<User> {
  requireUserSession(actor);
  const user = await users.findById(actor.scope, actor.userId);
  if (!user) throw new AppError('unauthorized');
  return user;
}
