import { AppError } from '../shared/app-error';

export interface DateRange {
  readonly from: Date;
  readonly to: Date;
}

/** ISO 8601 dates and date-times only: `2026-11-22`, `2026-11-22T10:00:00Z`, with an offset or fraction. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function parseDate(value: string, field: 'from' | 'to'): Date {
  const parsed = ISO_DATE.test(value) ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(parsed.getTime())) throw new AppError('invalidDateRange', { field }, `${field} is not a date`);
  return parsed;
}

/**
 * The range of a history query. Missing `to` = now; missing `from` = `to` minus the default span.
 * A value that is not an ISO 8601 date, or `from` after `to`, is `invalidDateRange`.
 */
export function parseDateRange(input: { from?: string; to?: string }, defaults: { now: Date; spanMs: number }): DateRange {
  const to = input.to === undefined ? defaults.now : parseDate(input.to, 'to');
  const from = input.from === undefined ? new Date(to.getTime() - defaults.spanMs) : parseDate(input.from, 'from');
  if (from.getTime() > to.getTime()) throw new AppError('invalidDateRange', { field: 'from' }, 'from is after to');
  return { from, to };
}

/** Open-ended bounds of a list filter: each optional, same rules when present. */
export function parseOptionalBounds(input: { from?: string; to?: string }): { from?: Date; to?: Date } {
  const from = input.from === undefined ? undefined : parseDate(input.from, 'from');
  const to = input.to === undefined ? undefined : parseDate(input.to, 'to');
  if (from && to && from.getTime() > to.getTime()) throw new AppError('invalidDateRange', { field: 'from' }, 'from is after to');
  return { from, to };
}
