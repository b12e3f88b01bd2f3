import type { Transaction } from '../shared/transaction';
import type { PageIncident, PageIncidentUpdate } from '../../domain/status-pages/page-incident';
import type { StatusPage } from '../../domain/status-pages/status-page';
import type { DirectDeliveries } from '../notifications/ports';
import type { Clock } from '../shared/clock';
import type { PageIncidentNotices } from './page-incident-notices';
import type { SubscriberRepository } from './ports';
import { addressed, type SubscriberLinks } from './subscriber-messages';

const STATUS_TEXT = { investigating: 'Investigating', identified: 'Identified', monitoring: 'Monitoring', resolved: 'Resolved' } as const;

/** Tells a page's confirmed subscribers (those following the incident's components) of each update, through the delivery ledger. */
export class SubscriberNotices implements PageIncidentNotices {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly deliveries: DirectDeliveries,
    private readonly links: SubscriberLinks,
    private readonly clock: Clock,
  ) {}

  async updated(page: StatusPage, incident: PageIncident, update: PageIncidentUpdate, tx: Transaction): Promise<void> {
    const stored = incident.updates.at(-1) ?? update;
    const news = {
      event: 'statusPage.incidentUpdate',
      subject: `[${page.title}] ${incident.title}: ${STATUS_TEXT[stored.status]}`,
      text: `${incident.title}\n${STATUS_TEXT[stored.status]}: ${stored.message}`,
      incidentId: incident.incidentPublicId,
      data: {
        incident: { id: incident.publicId, title: incident.title, status: stored.status },
        update: { status: stored.status, message: stored.message, at: stored.createdAt.toISOString() },
      },
    };
    const messages = (await this.subscribers.listIn(page.id, tx))
      .filter((s) => s.follows(incident.componentKeys))
      .map((s) => addressed(this.links, page, s, news, `statusPage:${page.id}:update:${stored.id}`));
    if (messages.length > 0) await this.deliveries.enqueue(messages, this.clock.now(), tx);
  }
}
