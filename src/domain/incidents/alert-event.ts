/**
 * Domain events of the alert rules and incidents, queued in the outbox with the change that caused
 * them: the incidents context's events (`events.ts`), under the names the alert rules use.
 */
export type { IncidentEvent as AlertEvent, IncidentEventKind as AlertEventKind } from './events';
