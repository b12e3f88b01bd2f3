import type { Actor } from '../shared/actor';
import type { MonitorListFilter, MonitorReader, Page } from './ports';

/** GET /api/websites: a page of website records as JSON, rendered by the read model in one round trip. */
export class ListWebsites {
  constructor(private readonly reader: MonitorReader) {}

  execute(actor: Actor, { filter, page }: { filter: MonitorListFilter; page: Page }): Promise<string> {
    return this.reader.websitePage(actor.scope, filter, page);
  }
}
