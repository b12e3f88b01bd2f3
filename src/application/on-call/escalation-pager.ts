import { whomToPage, type EscalationDirectory, type EscalationStep } from '../../domain/incident-management/escalation';
import type { DirectDeliveries, DirectMessage } from '../notifications/ports';
import type { EscalatingIncident, PagingContacts, ScheduleRepository, TeamRepository } from './ports';

/** The dedup key of a step's page to one user: a step is paged once per user, however often it is asked for. */
export const stepPageKey = (incidentId: string, step: EscalationStep, userId: string) => `im-escalation:${incidentId}:${step.step}:${userId}`;

/**
 * Pages the users escalation steps target (e-mail through the delivery ledger, in the caller's
 * transaction). Shared by the escalation job and "escalate now", so both page alike.
 */
export class EscalationPager {
  constructor(
    private readonly schedules: ScheduleRepository, private readonly teams: TeamRepository,
    private readonly contacts: PagingContacts, private readonly deliveries: DirectDeliveries,
  ) {}

  /** Enqueues the pages of `steps`; answers how many messages were enqueued. */
  async page(
    incident: EscalatingIncident, steps: readonly EscalationStep[], now: Date,
    keyOf: (step: EscalationStep, userId: string) => string = (step, userId) => stepPageKey(incident.id, step, userId),
  ): Promise<number> {
    const directory = await this.directory(incident.organizationId);
    const messages: DirectMessage[] = [];
    for (const step of steps) {
      const userIds = whomToPage(step.targets, directory, now);
      const contacts = await this.contacts.contacts(incident.organizationId, userIds);
      for (const userId of userIds) {
        const contact = contacts.get(userId);
        if (!contact) continue;
        const level = step.level + 1;
        messages.push({
          organizationId: incident.organizationId, customerId: incident.customerId, incidentId: incident.id,
          recipient: { type: 'email', address: contact.email }, event: 'im.incident.escalated',
          subject: `[Level ${level}] ${incident.title}`,
          text: `${contact.name}, you are paged for an unacknowledged incident (escalation level ${level}): ${incident.title}. `
            + `Opened ${incident.openedAt.toISOString()}. Incident ${incident.id}.`,
          data: { incidentId: incident.id, level, cycle: step.cycle, step: step.step },
          dedupKey: keyOf(step, userId),
        });
      }
    }
    if (messages.length) await this.deliveries.enqueue(messages, now);
    return messages.length;
  }

  private async directory(organizationId: number): Promise<EscalationDirectory> {
    const [schedules, teams] = await Promise.all([this.schedules.list(organizationId), this.teams.list(organizationId)]);
    return {
      schedules: new Map(schedules.map((s) => [s.id, s])),
      teams: new Map(teams.map((t) => [t.id, {
        memberIds: t.members.map((m) => m.userId), scheduleIds: schedules.filter((s) => s.teamId === t.id).map((s) => s.id),
      }])),
    };
  }
}
