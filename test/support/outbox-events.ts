import { SqlTransaction } from '../../src/infrastructure/persistence/sql-transaction';
import type { DomainEvent } from '../../src/domain/shared/domain-event';
import { incidentEventCodec, type IncidentEvent } from '../../src/domain/incidents/events';
import { maintenanceEventCodec, type MaintenanceEvent } from '../../src/domain/maintenance/events';
import type { UnitOfWorkSql } from '../../src/infrastructure/persistence/database';
import { OutboxEventPublisher } from '../../src/infrastructure/outbox/outbox-publisher';
import { standingAlone } from '../../src/infrastructure/persistence/pool-guard';

/** An event as a test writes it: its version is the publisher's current one (1). */
type Unversioned<E extends DomainEvent> = Omit<E, 'version'>;

/** Events written to the outbox through the service's one publisher, as the incidents context writes them. */
export class OutboxIncidentEvents {
  private readonly publisher: OutboxEventPublisher<IncidentEvent>;
  constructor(private readonly sql: UnitOfWorkSql) {
    this.publisher = new OutboxEventPublisher(sql, incidentEventCodec);
  }
  /** One event, or a list (as the incidents context's port takes them). */
  publish(events: Unversioned<IncidentEvent> | readonly Unversioned<IncidentEvent>[]): Promise<void> {
    const list: readonly Unversioned<IncidentEvent>[] = Array.isArray(events) ? events : [events];
    // On the test's own handle, standing alone even when the caller is inside a transaction's work (the pool guard's escape).
    return standingAlone('a test writes events on its own handle', () =>
      this.publisher.publish(
        list.map((e) => ({ ...e, version: 1 }) as IncidentEvent),
        new SqlTransaction(this.sql),
      ),
    );
  }
}

/** Events written to the outbox through the service's one publisher, as the maintenance context writes them. */
export class OutboxMaintenanceEvents {
  private readonly publisher: OutboxEventPublisher<MaintenanceEvent>;
  constructor(private readonly sql: UnitOfWorkSql) {
    this.publisher = new OutboxEventPublisher(sql, maintenanceEventCodec);
  }
  publish(event: Unversioned<MaintenanceEvent>): Promise<void> {
    return standingAlone('a test writes events on its own handle', () =>
      this.publisher.publish([{ ...event, version: 1 } as MaintenanceEvent], new SqlTransaction(this.sql)),
    );
  }
}

/**
 * SQL: the outbox row `o` is held for its customer's storm and no message of that storm told it
 * yet (its storm's `told_version` is below the version that held it).
 */
export const UNTOLD_HELD = `o.held_until IS NOT NULL AND o.held_version > (SELECT s.told_version FROM notification_storms s
   WHERE s.organization_id = o.organization_id AND s.customer_id = o.held_customer_id)`;
