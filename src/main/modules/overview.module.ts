import { CLOCK } from '../../application/shared/clock';
import { GetUptimeBars } from '../../application/overview/get-uptime-bars';
import { ListMonitorOverview } from '../../application/overview/list-monitor-overview';
import { MAINTENANCE_NOW, OVERVIEW_READER } from '../../application/overview/ports';
import { SqlOverviewReader } from '../../infrastructure/overview/sql-overview-reader';
import { overviewRouter } from '../../interfaces/http/overview/overview.router';
import { SQL } from '../tokens';
import { bindings } from './bindings';
import type { ContextModule } from './context-module';

/** The overview: a read model over monitors, their alert state, results and maintenance, for consoles. */
export const overviewModule = bindings(({ single }) => {
  single(OVERVIEW_READER, (c) => new SqlOverviewReader(c.get(SQL)));
  single(ListMonitorOverview, (c) => new ListMonitorOverview(c.get(OVERVIEW_READER), c.get(MAINTENANCE_NOW), c.get(CLOCK)));
  single(GetUptimeBars, (c) => new GetUptimeBars(c.get(OVERVIEW_READER), c.get(CLOCK)));
});

export const overviewContext: ContextModule = {
  name: 'overview',
  bindings: overviewModule,
  routers: [overviewRouter],
};
