import { DecideImEvents } from '../../application/incident-management/decide-im-events';
import { listenToNotices } from '../../infrastructure/persistence/pg-notices';
import { IM_EVENT_INTAKE_CHANNEL } from '../../infrastructure/incident-management/sql-im-event-intake';
import { startImEventDecider } from '../../interfaces/jobs/im-event-decider';
import type { ContextWorker } from './context-module';

/**
 * The decider of accepted events (every host runs one; one at a time decides, by the turn it holds):
 * started before the HTTP server, so what a previous run accepted and left undecided is decided
 * first; stopped after it, once its round ended.
 */
export const imEventDecider: ContextWorker = {
  name: 'event decider',
  start: ({ logger, databaseUrl, get }) =>
    startImEventDecider(get(DecideImEvents), logger, {
      listen: (handlers) => listenToNotices(databaseUrl, IM_EVENT_INTAKE_CHANNEL, 'event intake', logger, handlers),
    }),
};
