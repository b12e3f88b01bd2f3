import { AppError } from '../../domain/shared/app-error';
import { organizationScope } from '../../domain/shared/tenant-scope';
import { ackGrantRefusal, type AckGrantKind } from '../../domain/on-call/web-push';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { SecretTokens, UserRepository } from '../identity/ports';
import type { AckGrantStore } from './push-ports';

/** An incident's acknowledgement as its own context does it (AcknowledgeIncident, AcknowledgeImIncident). */
export interface Acknowledger {
  execute(actor: Actor, ref: string): Promise<unknown>;
}

/**
 * POST /api/push/{kind}/{id}/acknowledge: the notification's action button. The grant it carries is
 * the only credential: it must be known (pushGrantInvalid), for this incident (pushGrantMismatch,
 * which is also what another organization's incident answers), unused (pushGrantUsed) and within
 * its time (pushGrantExpired). It is marked used in the database before anything else (two clicks,
 * one acknowledgement), then the incident is acknowledged as the person it was issued to, with that
 * person's role and customer scope as they are now (a user since removed or switched off: pushGrantInvalid).
 */
export class AcknowledgeWithPushGrant {
  constructor(
    private readonly grants: AckGrantStore,
    private readonly users: UserRepository,
    private readonly tokens: SecretTokens,
    private readonly acknowledgers: Readonly<Record<AckGrantKind, Acknowledger>>,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute({ kind, incidentRef, token }: { kind: AckGrantKind; incidentRef: string; token: string }): Promise<void> {
    const hash = this.tokens.hash(token);
    const grant = token.startsWith('wpg_') ? await this.grants.find(hash) : null;
    const now = this.clock.now();
    const refusal = grant && grant.kind !== kind ? 'pushGrantMismatch' : ackGrantRefusal(grant, incidentRef, now);
    if (refusal || !grant) throw new AppError(refusal ?? 'pushGrantInvalid');
    const user = await this.users.findById(organizationScope(grant.organizationId), grant.userId);
    if (!user?.isActive) throw new AppError('pushGrantInvalid');
    const used = await this.transactions.run((tx) => this.grants.use(hash, now, tx));
    if (!used) throw new AppError('pushGrantUsed');
    const actor: Actor = {
      kind: 'apiToken',
      userId: user.id,
      role: user.role,
      scope: { organizationId: grant.organizationId, customerId: user.customerId },
      isPlatformAdmin: false,
      isPlatformSupporter: false,
      sessionId: null,
      tokenId: null,
      mfaEnabled: false,
      stepUpVerifiedAt: null,
      agentScopes: [],
    };
    await this.acknowledgers[kind].execute(actor, incidentRef);
  }
}
