import { CLOCK } from '../../application/shared/clock';
import { FollowLiveEvents } from '../../application/live-events/follow-live-events';
import { PruneLiveEvents } from '../../application/live-events/prune-live-events';
import { DEFAULT_LIVE_EVENT_LIMITS, LIVE_EVENT_LIMITS, LIVE_EVENT_LOG, LIVE_EVENT_SIGNALS } from '../../application/live-events/ports';
import type { Database } from '../../infrastructure/persistence/database';
import { PgLiveEventSignals } from '../../infrastructure/live-events/pg-live-event-signals';
import { SqlLiveEventLog } from '../../infrastructure/live-events/sql-live-event-log';
import { liveEventsRouter } from '../../interfaces/http/live-events/events.router';
import { liveEventsPruneJob } from '../../interfaces/jobs/live-events-prune.job';
import { LOGGER, SQL } from '../tokens';
import { bindings } from './bindings';
import type { ContextModule } from './context-module';

/**
 * The live event stream (GET /api/events): the log the database's triggers fill, one LISTEN
 * connection per process (opened by the first stream), and the stream's bounds.
 */
export const liveEventsModule = (database: Database) =>
  bindings(({ single }) => {
    single(LIVE_EVENT_LIMITS, () => DEFAULT_LIVE_EVENT_LIMITS);
    single(LIVE_EVENT_LOG, (c) => new SqlLiveEventLog(c.get(SQL)));
    single(LIVE_EVENT_SIGNALS, (c) => new PgLiveEventSignals(database.url, c.get(LOGGER)));
    single(FollowLiveEvents, (c) => new FollowLiveEvents(c.get(LIVE_EVENT_LOG), c.get(LIVE_EVENT_SIGNALS), c.get(LIVE_EVENT_LIMITS)));
    single(PruneLiveEvents, (c) => new PruneLiveEvents(c.get(LIVE_EVENT_LOG), c.get(CLOCK)));
  });

export const liveEventsContext: ContextModule = {
  name: 'live-events',
  bindings: ({ database }) => liveEventsModule(database),
  routers: [liveEventsRouter],
  jobs: [liveEventsPruneJob],
  // The stream's LISTEN connection (opened by the first stream), closed after the HTTP server closed its streams.
  closers: [{ name: 'live event signals', close: (get) => get(LIVE_EVENT_SIGNALS).close() }],
};
