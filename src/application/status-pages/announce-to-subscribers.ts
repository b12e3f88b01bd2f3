import { componentKey, type StatusPage } from '../../domain/status-pages/status-page';
import type { DirectDeliveries, DirectMessage } from '../notifications/ports';
import type { MaintenanceWindowRepository } from '../maintenance/ports';
import type { Clock } from '../shared/clock';
import type { Transaction, TransactionRunner } from '../shared/transaction';
import type { ComponentCatalog, PageEvent, PageEventFeed, StatusPageRepository, SubscriberRepository } from './ports';
import { addressed, type SubscriberLinks } from './subscriber-messages';

const TITLES: Record<PageEvent['kind'], string> = {
  incidentOpened: 'Incident',
  incidentResolved: 'Resolved',
  'maintenance.scheduled': 'Maintenance scheduled',
  'maintenance.started': 'Maintenance started',
  'maintenance.ended': 'Maintenance completed',
};

/**
 * The subscribers' job: reads the incident and maintenance events of the notification outbox not
 * told yet and writes, in the transaction that marks them told, one message per event to each
 * confirmed subscriber of each page showing an affected component. Concurrent runs take different
 * rows; the messages' dedup keys make a retried batch send nothing twice.
 */
export class AnnounceToSubscribers {
  constructor(
    private readonly feed: PageEventFeed,
    private readonly pages: StatusPageRepository,
    private readonly catalog: ComponentCatalog,
    private readonly windows: MaintenanceWindowRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly deliveries: DirectDeliveries,
    private readonly tx: TransactionRunner,
    private readonly links: SubscriberLinks,
    private readonly clock: Clock,
  ) {}

  /** One batch of at most `limit` events; answers how many events it read and messages it wrote. */
  async execute(limit = 200): Promise<{ events: number; messages: number }> {
    return this.tx.run(async (tx) => {
      const events = await this.feed.next(limit, tx);
      let written = 0;
      for (const event of events) {
        const messages: DirectMessage[] = [];
        for (const { page, affected, shownAs } of await this.pagesFor(event, tx)) {
          const summary = publicSummary(event, shownAs);
          const news = {
            event: `statusPage.${event.kind}`,
            // A maintenance summary starts with its own "Maintenance ...:" prefix, which the title replaces;
            // an incident's text is kept whole (a name or a title may hold a colon).
            subject: `[${page.title}] ${TITLES[event.kind]}: ${event.kind.startsWith('maintenance') ? summary.replace(/^[^:]*:\s*/, '') : summary}`,
            text: event.occurrence
              ? `${summary}\n${event.occurrence.start.toISOString()} – ${event.occurrence.end.toISOString()}`
              : `${summary}\n${event.occurredAt.toISOString()}`,
            data: { event: event.kind, summary, id: event.subjectId, occurredAt: event.occurredAt.toISOString() },
            incidentId: event.kind.startsWith('incident') ? event.subjectId : null,
          };
          for (const subscriber of await this.subscribers.listIn(page.id, tx)) {
            if (subscriber.follows(affected))
              messages.push(addressed(this.links, page, subscriber, news, `statusPage:${page.id}:outbox:${event.id}`));
          }
        }
        if (messages.length > 0) await this.deliveries.enqueue(messages, this.clock.now(), tx);
        written += messages.length;
      }
      if (events.length > 0)
        await this.feed.markTold(
          events.map((e) => e.id),
          this.clock.now(),
          tx,
        );
      return { events: events.length, messages: written };
    });
  }

  /** The organization's pages that show a component the event is about, with those components' keys. */
  private async pagesFor(event: PageEvent, tx: Transaction): Promise<{ page: StatusPage; affected: string[]; shownAs: string | null }[]> {
    const pages = await this.pages.listIn({ organizationId: event.organizationId, customerId: null }, tx);
    if (pages.length === 0) return [];
    const window =
      event.kind.startsWith('maintenance') && event.subjectId
        ? await this.windows.findByRefIn({ organizationId: event.organizationId, customerId: null }, event.subjectId, tx)
        : null;
    const records = await this.catalog.existingIn(
      event.organizationId,
      pages.flatMap((p) => p.components),
      tx,
    );
    const found: { page: StatusPage; affected: string[]; shownAs: string | null }[] = [];
    for (const page of pages) {
      const affected = page.components.filter((c) => {
        if (event.monitorId !== null) return c.type === 'monitor' && c.id === event.monitorId;
        const record = records.get(componentKey(c));
        if (!window || !record) return false;
        return c.type === 'monitor'
          ? window.coversMonitor({ monitorId: c.id, customerId: record.customerId })
          : window.coversAsset({ type: c.type, id: c.id, customerId: record.customerId });
      });
      if (affected.length === 0) continue;
      // The monitor as this page names it now (its component's name, else its public name).
      const monitorComponent = event.monitorId === null ? undefined : affected.find((c) => c.type === 'monitor');
      const record = monitorComponent ? records.get(componentKey(monitorComponent)) : undefined;
      const shownAs = monitorComponent ? (monitorComponent.name ?? record?.publicName ?? record?.name ?? null) : null;
      found.push({ page, affected: affected.map(componentKey), shownAs });
    }
    return found;
  }
}

/**
 * What subscribers are told an incident event is: about the monitor as the page names it, never
 * the stored text (which names the monitor as it was when the incident opened, maybe by its target).
 */
function publicSummary(event: PageEvent, shownAs: string | null): string {
  if (shownAs === null || event.origin !== 'automatic') return event.summary;
  if (event.kind === 'incidentOpened') return `${shownAs} is down`;
  if (event.kind === 'incidentResolved') return `${shownAs} recovered`;
  return event.summary;
}
