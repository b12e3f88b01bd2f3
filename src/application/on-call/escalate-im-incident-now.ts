import { ACCOUNT_EMAIL_METHOD } from '../../domain/incident-management/contact-method';
import { stepToEscalateNow } from '../../domain/on-call/escalation';
import { AppError } from '../../domain/shared/app-error';
import type { ImIncident } from '../../domain/incident-management/im-incident';
import { findImIncident } from '../incident-management/find-im-incident';
import type { ImIncidentRepository, ImTeamDirectory } from '../incident-management/ports';
import { requireTeamMembership } from '../incident-management/team-membership';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { Transaction, TransactionRunner } from '../shared/transaction';
import { stepPageKey, type EscalationPager } from './escalation-pager';
import type { EscalationLedger, EscalationPolicyRepository } from './ports';

/**
 * "Escalate now": pages the next level of the incident's escalation policy at once, with the
 * escalation job's pager and ledger. The step paged is the one the job would have paged next (same
 * dedup keys, so the job never pages it twice) and the ledger moves past it; later levels keep
 * their times. Past the end of the chain (or after an acknowledgement stopped it) the last level is
 * paged again. An incident without a policy pages no one; the request is still recorded on the timeline.
 */
export class EscalateImIncidentNow {
  constructor(
    private readonly incidents: ImIncidentRepository,
    private readonly teams: ImTeamDirectory,
    private readonly ledger: EscalationLedger,
    private readonly policies: EscalationPolicyRepository,
    private readonly pager: EscalationPager,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, ref: string): Promise<ImIncident> {
    return this.transactions.run(async (tx) => {
      requireAction(actor, 'imIncident.escalate', 'imAccessDenied');
      const now = this.clock.now();
      const incident = await findImIncident(this.incidents, actor.scope, ref, tx);
      await requireTeamMembership(actor, incident, this.teams, tx);
      if (!incident.isOpen) throw new AppError('imIncidentAlreadyClosed', { status: incident.status });
      const paged = await this.pageNextLevel(incident, now, tx);
      incident.recordEscalation(actor.userId, now, paged);
      await this.incidents.save(actor.scope, incident, tx);
      return incident;
    });
  }

  private async pageNextLevel(incident: ImIncident, now: Date, tx: Transaction): Promise<{ level: number | null; pages: number }> {
    const policy = incident.escalationPolicyId
      ? await this.policies.findIn(incident.organizationId, incident.escalationPolicyId, tx)
      : null;
    if (!policy) return { level: null, pages: 0 };
    const row = await this.ledger.claimIncident(incident.organizationId, incident.publicId, now, tx);
    if (!row) return { level: null, pages: 0 };
    const step = stepToEscalateNow(policy, row.incident.openedAt, row.nextStep);
    if (!step) return { level: null, pages: 0 };
    const inChain = row.nextStep !== null && row.nextStep === step.step;
    const pages = await this.pager.page(
      row.incident,
      [step],
      now,
      (s, userId, methodId) =>
        inChain
          ? stepPageKey(incident.publicId, s, userId, methodId)
          : `im-escalation:${incident.publicId}:now:${now.getTime()}:${userId}${methodId === ACCOUNT_EMAIL_METHOD ? '' : `:${methodId}`}`,
      tx,
    );
    if (inChain) {
      const following = stepToEscalateNow(policy, row.incident.openedAt, step.step + 1);
      const hasNext = following !== null && following.step === step.step + 1;
      await this.ledger.advance(
        incident.publicId,
        hasNext ? { step: following.step, dueAt: new Date(Math.max(following.dueAt.getTime(), now.getTime())) } : null,
        now,
        tx,
      );
    }
    return { level: step.level + 1, pages };
  }
}
