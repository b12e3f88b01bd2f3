import type { Logger } from 'pino';
import type { AlertStateChangeHandlers, AlertStateChanges } from '../../application/incidents/ports';
import { listenToNotices } from '../persistence/pg-notices';

/** `LISTEN alert_state`: the alert-state table's statement triggers send the changed monitors' ids, comma-separated. */
export class PgAlertStateChanges implements AlertStateChanges {
  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  listen(handlers: AlertStateChangeHandlers): Promise<() => Promise<void>> {
    return listenToNotices(this.databaseUrl, 'alert_state', 'alert-state change', this.logger, {
      notice: (payload) => {
        for (const id of payload.split(',')) handlers.changed(Number(id));
      },
      lost: handlers.lost,
      resumed: handlers.resumed,
    });
  }
}
