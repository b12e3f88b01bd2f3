import type { Transaction } from '../shared/transaction';
import { whomToPage, type EscalationDirectory, type EscalationStep } from '../../domain/on-call/escalation';
import type { DirectDeliveries, DirectMessage } from '../notifications/ports';
import { ACCOUNT_EMAIL_METHOD, pageRoutes } from '../../domain/incident-management/contact-method';
import type { ContactMethodRepository, EscalatingIncident, PagingContacts, ScheduleRepository, TeamRepository } from './ports';

/**
 * The dedup key of a step's page to one user through one contact method: a step is paged once per
 * user and method, however often it is asked for (the account e-mail keeps the key it always had).
 */
export const stepPageKey = (incidentId: string, step: EscalationStep, userId: string, methodId: string = ACCOUNT_EMAIL_METHOD) =>
  `im-escalation:${incidentId}:${step.step}:${userId}${methodId === ACCOUNT_EMAIL_METHOD ? '' : `:${methodId}`}`;

/**
 * Pages the users escalation steps target, through every enabled contact method of each (the
 * account e-mail by default; SMS, webhooks and other addresses they added), through the delivery
 * ledger in the caller's transaction. Shared by the escalation job and "escalate now", so both
 * page alike.
 */
export class EscalationPager {
  constructor(
    private readonly schedules: ScheduleRepository,
    private readonly teams: TeamRepository,
    private readonly contacts: PagingContacts,
    private readonly deliveries: DirectDeliveries,
    /** Without it, pages go to account e-mails only. */
    private readonly methods: ContactMethodRepository | null = null,
  ) {}

  /** Enqueues the pages of `steps`; answers how many messages were enqueued. */
  async page(
    incident: EscalatingIncident,
    steps: readonly EscalationStep[],
    now: Date,
    keyOf: (step: EscalationStep, userId: string, methodId: string) => string = (step, userId, methodId) =>
      stepPageKey(incident.id, step, userId, methodId),
    tx: Transaction,
  ): Promise<number> {
    const directory = await this.directory(incident.organizationId, tx);
    const messages: DirectMessage[] = [];
    for (const step of steps) {
      const userIds = whomToPage(step.targets, directory, now);
      const contacts = await this.contacts.contactsIn(incident.organizationId, userIds, tx);
      const methods = this.methods ? await this.methods.ofUsersIn(incident.organizationId, userIds, tx) : new Map();
      for (const userId of userIds) {
        const contact = contacts.get(userId);
        if (!contact) continue;
        const level = step.level + 1;
        for (const route of pageRoutes(contact.email, methods.get(userId) ?? [])) {
          messages.push({
            organizationId: incident.organizationId,
            customerId: incident.customerId,
            incidentId: incident.id,
            recipient: route.recipient,
            event: 'im.incident.escalated',
            subject: `[Level ${level}] ${incident.title}`,
            text:
              `${contact.name}, you are paged for an unacknowledged incident (escalation level ${level}): ${incident.title}. ` +
              `Opened ${incident.openedAt.toISOString()}. Incident ${incident.id}.`,
            data: { incidentId: incident.id, level, cycle: step.cycle, step: step.step, userId, contactMethodId: route.methodId },
            dedupKey: keyOf(step, userId, route.methodId),
          });
        }
      }
    }
    if (messages.length) await this.deliveries.enqueue(messages, now, tx);
    return messages.length;
  }

  /** On the paging transaction, one read after the other (its one connection). */
  private async directory(organizationId: number, tx: Transaction): Promise<EscalationDirectory> {
    const schedules = await this.schedules.listIn(organizationId, {}, tx);
    const teams = await this.teams.listIn(organizationId, tx);
    return {
      schedules: new Map(schedules.map((s) => [s.id, s])),
      teams: new Map(
        teams.map((t) => [
          t.id,
          {
            memberIds: t.members.map((m) => m.userId),
            scheduleIds: schedules.filter((s) => s.teamId === t.id).map((s) => s.id),
          },
        ]),
      ),
    };
  }
}
