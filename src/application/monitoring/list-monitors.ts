import type { MonitorKind } from '../../domain/monitoring/monitor-kind';
import type { Actor } from '../shared/actor';
import type { MonitorListFilter, MonitorListItem, MonitorReader, Page, PageOf } from './ports';

/** GET /api/websites and GET /api/monitors/{type}: a page of the monitors visible to the caller. */
export class ListMonitors {
  constructor(private readonly reader: MonitorReader) {}

  execute(
    actor: Actor,
    { kind, filter, page }: { kind: MonitorKind; filter: MonitorListFilter; page: Page },
  ): Promise<PageOf<MonitorListItem>> {
    return this.reader.list(actor.scope, kind, filter, page);
  }
}
