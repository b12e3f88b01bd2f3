import { AppError } from '../shared/app-error';
import type { MonitoringType } from './monitor-kind';
import { validationIssue } from './validation-issue';

/** Minutes between checks: 1-1440 for scheduled monitors, 1-43200 for heartbeats (expected ping period). */
export const MIN_CHECK_INTERVAL = 1;
export const MAX_CHECK_INTERVAL = 1440;
export const MAX_HEARTBEAT_INTERVAL = 43200;

export const checkIntervalCeiling = (type: MonitoringType): number => (type === 'heartbeat' ? MAX_HEARTBEAT_INTERVAL : MAX_CHECK_INTERVAL);

/** The interval a new monitor gets when none is sent: 5 minutes (60 for heartbeats), never below the package minimum. */
export const defaultCheckInterval = (type: MonitoringType, packageMinimum: number): number =>
  Math.min(checkIntervalCeiling(type), Math.max(type === 'heartbeat' ? 60 : 5, packageMinimum));

/**
 * POST (website rule 1): a value above the type's ceiling is a validation issue on `checkInterval`;
 * one below the package minimum answers checkIntervalTooLow.
 */
export function assertCreateInterval(value: number, type: MonitoringType, packageMinimum: number): void {
  const ceiling = checkIntervalCeiling(type);
  if (value > ceiling) throw validationIssue('checkInterval', `Must be at most ${ceiling} minutes for ${type} monitors`, 'too_big');
  if (value < packageMinimum) throw new AppError('checkIntervalTooLow', { field: 'checkInterval', minimum: packageMinimum });
}

/**
 * PATCH (website rules 2-3): not an integer of at least 1 answers invalidCheckInterval; above the
 * ceiling of the type (sent, else stored) checkIntervalTooHigh; below the package minimum
 * checkIntervalTooLow.
 */
export function assertPatchInterval(value: unknown, type: MonitoringType, packageMinimum: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_CHECK_INTERVAL) {
    throw new AppError('invalidCheckInterval', { field: 'checkInterval', maximum: checkIntervalCeiling(type) });
  }
  if (value > checkIntervalCeiling(type))
    throw new AppError('checkIntervalTooHigh', { field: 'checkInterval', maximum: checkIntervalCeiling(type) });
  if (value < packageMinimum) throw new AppError('checkIntervalTooLow', { field: 'checkInterval', minimum: packageMinimum });
  return value;
}

/** A stored interval that a type change pushes over the new ceiling. */
export function assertIntervalFitsType(value: number, type: MonitoringType): void {
  if (value > checkIntervalCeiling(type))
    throw new AppError('checkIntervalTooHigh', { field: 'checkInterval', maximum: checkIntervalCeiling(type) });
}
