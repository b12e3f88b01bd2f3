export * from './ports';
export * from './follow-live-events';
export * from './prune-live-events';
export * from '../../domain/live-events/live-event';
