import type { TransactionRunner } from '../shared/transaction';
import type { Actor } from '../shared/actor';
import type { SessionRepository } from './ports';

/** Ends the caller's session. Token callers have no session to end; the call is then a no-op. */
export class SignOut {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly transactions: TransactionRunner,
  ) {}

  async execute(actor: Actor): Promise<void> {
    if (actor.kind !== 'session' || !actor.sessionId) return;
    const session = await this.sessions.findById(actor.sessionId);
    if (session) await this.transactions.run((tx) => this.sessions.remove(session, tx));
  }
}
