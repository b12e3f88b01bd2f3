import type { DomainEvent } from '../../domain/shared/domain-event';
import type { Transaction } from './transaction';

/**
 * Publishes a context's events: written to the outbox inside the caller's transaction, in the order
 * given (one statement for the list), so they commit with the change that caused them or not at all.
 * Each publishing context names its own publisher (`IncidentEvents`, `MaintenanceEvents`, ...) over
 * its events' type; one adapter answers them all (infrastructure/outbox).
 */
export interface DomainEventPublisher<E extends DomainEvent> {
  /** `tx`: the caller's transaction, named (without it, the current unit of work's). */
  publish(events: readonly E[], tx: Transaction): Promise<void>;
}
