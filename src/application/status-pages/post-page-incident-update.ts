import { AppError } from '../../domain/shared/app-error';
import type { UpdateStatus } from '../../domain/status-pages/page-incident';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { ComponentCatalog, PageIncidentRepository, StatusPageRepository } from './ports';
import type { PageIncidentNotices } from './page-incident-notices';
import { findPageInScope } from './page-lookup';
import { pageIncidentViews, type PageIncidentView } from './page-incident-views';

/** POST /api/status-pages/{id}/incidents/{incidentId}/updates: investigating, identified, monitoring, resolved. */
export class PostPageIncidentUpdate {
  constructor(
    private readonly pages: StatusPageRepository,
    private readonly incidents: PageIncidentRepository,
    private readonly catalog: ComponentCatalog,
    private readonly notices: PageIncidentNotices,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: string; incidentId: string; status: UpdateStatus; message: string }): Promise<PageIncidentView> {
    requireAction(actor, 'statusPage.postIncident');
    const page = await findPageInScope(this.pages, actor.scope, input.id);
    const incident = await this.incidents.findByRef(page.id, input.incidentId);
    if (!incident) throw new AppError('pageIncidentNotFound');
    await this.tx.run(async (tx) => {
      const update = incident.post(input.status, input.message, this.clock.now());
      await this.incidents.save(incident, tx);
      await this.notices.updated(page, incident, update, tx);
    });
    return (await pageIncidentViews(this.catalog, page, [incident]))[0]!;
  }
}
