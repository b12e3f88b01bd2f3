import { escalationProgress } from '../../domain/on-call/escalation';
import type { DirectDeliveries } from '../notifications/ports';
import type { Clock } from '../shared/clock';
import type { Transaction, TransactionRunner } from '../shared/transaction';
import { EscalationPager } from './escalation-pager';
import type {
  ContactMethodRepository,
  DueEscalation,
  EscalationLedger,
  EscalationPolicyRepository,
  PagingContacts,
  ScheduleRepository,
  TeamRepository,
} from './ports';

/** Rows handled per transaction: a batch's pages commit together with the ledger's advance. */
const BATCH = 20;

export interface EscalationRunReport {
  readonly adopted: number;
  readonly stepsPaged: number;
  readonly pages: number;
}

/**
 * The escalation job's work: starts escalating new incidents, then pages every step that has come
 * due, each in the transaction that moves the incident's ledger row on, through the delivery
 * ledger (so a page is sent at least once, with retries, exactly when the step is recorded as
 * paged). Whether a step fires is the domain's decision at run time from the incident's own
 * state: an acknowledged or resolved incident pages no one and its row is closed. Steps missed
 * while no worker ran are paged together by the next run. Dedup keys make a repeated run harmless.
 */
export class RunDueEscalations {
  private readonly pager: EscalationPager;

  constructor(
    private readonly ledger: EscalationLedger,
    private readonly policies: EscalationPolicyRepository,
    schedules: ScheduleRepository,
    teams: TeamRepository,
    contacts: PagingContacts,
    deliveries: DirectDeliveries,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
    methods: ContactMethodRepository | null = null,
  ) {
    this.pager = new EscalationPager(schedules, teams, contacts, deliveries, methods);
  }

  async execute(): Promise<EscalationRunReport> {
    const now = this.clock.now();
    const adopted = await this.tx.run((tx) => this.ledger.adoptNew(now, tx));
    let stepsPaged = 0;
    let pages = 0;
    for (;;) {
      const handled = await this.tx.run(async (tx) => {
        const due = await this.ledger.claimDue(now, BATCH, tx);
        for (const escalation of due) {
          const outcome = await this.escalate(escalation, now, tx);
          stepsPaged += outcome.steps;
          pages += outcome.pages;
        }
        return due.length;
      });
      if (handled < BATCH) break;
    }
    return { adopted, stepsPaged, pages };
  }

  private async escalate({ incident, nextStep }: DueEscalation, now: Date, tx: Transaction): Promise<{ steps: number; pages: number }> {
    const policy = incident.escalationPolicyId
      ? await this.policies.findIn(incident.organizationId, incident.escalationPolicyId, tx)
      : null;
    if (!policy) {
      await this.ledger.advance(incident.id, null, now, tx);
      return { steps: 0, pages: 0 };
    }
    const progress = escalationProgress(policy, incident, now);
    const steps = progress.fired.filter((s) => s.step >= nextStep);
    let pages = 0;
    if (steps.length) pages = await this.pager.page(incident, steps, now, undefined, tx);
    await this.ledger.advance(incident.id, progress.next ? { step: progress.next.step, dueAt: progress.next.dueAt } : null, now, tx);
    return { steps: steps.length, pages };
  }
}
