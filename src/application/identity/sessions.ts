import { Session, type SessionKind } from '../../domain/identity/session';
import type { User } from '../../domain/identity/user';
import type { AuditTrail } from '../audit/ports';
import type { Clock } from '../shared/clock';
import type { Transaction, TransactionRunner } from '../shared/transaction';
import type { IdGenerator } from '../shared/id-generator';
import type { SecretTokens, SessionRepository } from './ports';

export interface IssuedSession {
  readonly session: Session;
  /** The secret, returned once to the client; only its digest is stored. */
  readonly token: string;
}

/** Opens sessions; shared by sign-up, sign-in and the second-factor step of sign-in. */
export class SessionIssuer {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly secrets: SecretTokens,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
    private readonly trail?: AuditTrail,
  ) {}

  /**
   * Opens a full session for a user who proved who they are, with its audit entry (`signedIn`) in
   * the same transaction.
   */
  async signIn(user: User, steppedUp = false): Promise<IssuedSession> {
    return this.transactions.run(async (tx) => {
      const issued = await this.issue(user.id, 'session', steppedUp, tx);
      await this.trail?.append(
        {
          organizationId: user.organizationId,
          customerId: user.customerId ?? null,
          actorType: 'user',
          userId: user.id,
          actorLabel: user.email,
          credentialType: 'session',
          resourceType: 'user',
          resourceId: user.id,
          action: 'signedIn',
        },
        tx,
      );
      return issued;
    });
  }

  /** A second-factor challenge for a user who gave the right password, in a transaction of its own. */
  challenge(userId: string): Promise<IssuedSession> {
    return this.transactions.run((tx) => this.issue(userId, 'twoFactorChallenge', false, tx));
  }

  /** `tx`: the caller's transaction, which the session's writes join. */
  async issue(userId: string, kind: SessionKind, steppedUp: boolean, tx: Transaction): Promise<IssuedSession> {
    const now = this.clock.now();
    const token = this.secrets.generate('');
    const session = new Session({ id: this.ids.uuid(), userId, tokenHash: this.secrets.hash(token), kind, now });
    if (steppedUp) session.markSteppedUp(now);
    await this.sessions.add(session, tx);
    if (kind === 'session') await this.sessions.recordSignIn(userId, now, tx);
    return { session, token };
  }
}
