import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { ComponentCatalog, PageIncidentRepository, StatusPageRepository } from './ports';
import { findPageInScope } from './page-lookup';
import { pageIncidentViews, type PageIncidentView } from './page-incident-views';

const HISTORY_MS = 90 * 86_400_000;

/** GET /api/status-pages/{id}/incidents: open ones and those of the last 90 days, newest first. */
export class ListPageIncidents {
  constructor(
    private readonly pages: StatusPageRepository,
    private readonly incidents: PageIncidentRepository,
    private readonly catalog: ComponentCatalog,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<PageIncidentView[]> {
    const page = await findPageInScope(this.pages, actor.scope, input.id);
    const list = await this.incidents.list(page.id, new Date(this.clock.now().getTime() - HISTORY_MS));
    return pageIncidentViews(this.catalog, page, list);
  }
}
