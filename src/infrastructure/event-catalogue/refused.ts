import type { Logger } from 'pino';
import type { RefusedEvents } from './published-events';

/** Without a logger (tests, tools): a process warning per refused row. */
export const warnRefused: RefusedEvents = (refused) => {
  for (const r of refused) process.emitWarning(`outbox row ${r.id} (${r.kind}) refused: ${r.reason}`, 'EventRefused');
};

/** With the service's logger: one error line per batch of refused rows. */
export const logRefused =
  (logger: Pick<Logger, 'error'>): RefusedEvents =>
  (refused) =>
    logger.error(
      { refused },
      'outbox rows refused by the event decoder (set aside): an unknown kind or version, or a payload that does not fit',
    );
