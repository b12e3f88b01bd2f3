import { AppError } from '../shared/app-error';

export const MIN_TIMEOUT_SECONDS = 1;
export const MAX_TIMEOUT_SECONDS = 60;
export const DEFAULT_TIMEOUT_SECONDS = 30;

/** timeoutSeconds: an integer 1-60, else invalidTimeout. */
export function assertTimeout(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_TIMEOUT_SECONDS || value > MAX_TIMEOUT_SECONDS) {
    throw new AppError('invalidTimeout', { field: 'timeoutSeconds', minimum: MIN_TIMEOUT_SECONDS, maximum: MAX_TIMEOUT_SECONDS });
  }
  return value;
}
