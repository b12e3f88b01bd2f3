import { AppError } from '../../domain/shared/app-error';
import { PageIncident, type UpdateStatus } from '../../domain/status-pages/page-incident';
import { componentKey } from '../../domain/status-pages/status-page';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import type { ComponentCatalog, PageIncidentRepository, StatusPageReadings, StatusPageRepository } from './ports';
import type { PageIncidentNotices } from './page-incident-notices';
import { findPageInScope } from './page-lookup';
import { pageIncidentViews, type PageIncidentView } from './page-incident-views';

export interface NewPageIncidentInput {
  id: string;
  title?: string;
  /** A service incident of a monitor on the page (automatic or manual). */
  incidentId?: string;
  status: UpdateStatus;
  message: string;
  componentIds: string[];
}

/**
 * POST /api/status-pages/{id}/incidents: the first update about an incident. Naming a service
 * incident that already has a page incident adds the update to it instead (one story per incident).
 * Subscribers are told in the same transaction (through the delivery ledger).
 */
export class CreatePageIncident {
  constructor(
    private readonly pages: StatusPageRepository,
    private readonly incidents: PageIncidentRepository,
    private readonly readings: StatusPageReadings,
    private readonly catalog: ComponentCatalog,
    private readonly notices: PageIncidentNotices,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: NewPageIncidentInput): Promise<PageIncidentView> {
    requireAction(actor, 'statusPage.postIncident');
    const page = await findPageInScope(this.pages, actor.scope, input.id);
    const now = this.clock.now();
    const existing = await this.catalog.existing(page.organizationId, page.components);
    const componentKeys = input.componentIds.map((ref) => {
      const record = [...existing.values()].find((r) => r.publicId === ref.toLowerCase() || String(r.id) === ref);
      if (!record)
        throw new AppError('validationFailed', { field: 'componentIds', componentId: ref }, `Not a component of this page: ${ref}`);
      return componentKey(record);
    });
    let service = null;
    if (input.incidentId !== undefined) {
      service = await this.readings.incident(actor.scope, input.incidentId);
      if (!service || !existing.has(componentKey({ type: 'monitor', id: service.monitorId }))) throw new AppError('incidentNotFound');
    }
    if (!service && !input.title)
      throw new AppError('validationFailed', { field: 'title' }, 'title is required for an incident declared on the page');
    const incident = await this.tx.run(async (tx) => {
      const known = service ? await this.incidents.findByServiceIncident(page.id, service.id) : null;
      const target =
        known ??
        PageIncident.open(
          {
            publicId: this.ids.uuid(),
            pageId: page.id,
            incidentId: service?.id ?? null,
            incidentPublicId: service?.publicId ?? null,
            title: input.title ?? service!.title,
            componentKeys:
              componentKeys.length > 0 ? componentKeys : service ? [componentKey({ type: 'monitor', id: service.monitorId })] : [],
          },
          now,
        );
      const update = target.post(input.status, input.message, now);
      if (known) await this.incidents.save(target, tx);
      else await this.incidents.add(target, tx);
      await this.notices.updated(page, target, update, tx);
      return target;
    });
    return (await pageIncidentViews(this.catalog, page, [incident]))[0]!;
  }
}
