import type { Actor } from '../shared/actor';
import type { MonitorListFilter, MonitorReader, Page, RenderedPage } from './ports';

/** GET /api/websites: a page of website records, rendered by the read model in one round trip. */
export class ListWebsites {
  constructor(private readonly reader: MonitorReader) {}

  execute(actor: Actor, { filter, page }: { filter: MonitorListFilter; page: Page }): Promise<RenderedPage> {
    return this.reader.websitePage(actor.scope, filter, page);
  }
}
