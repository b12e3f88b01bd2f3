import { AppError } from '../../domain/shared/app-error';
import { occurrencesBetween, type Occurrence } from '../../domain/maintenance/occurrences';
import type { RecurrenceExpander } from './ports';
import { assertRule } from './window-input';

export interface PreviewInput {
  startTime: Date;
  endTime: Date;
  timezone: string;
  rrule: string | null;
  /** Occurrences from this instant on (default: startTime). */
  from?: Date;
  /** At most this many (default 10). */
  count?: number;
}

const HORIZON_MS = 5 * 366 * 24 * 60 * 60_000;

/** POST /api/maintenance-windows/preview-occurrences: the spans a window would have, before it is saved. */
export class PreviewOccurrences {
  constructor(private readonly expander: RecurrenceExpander) {}

  execute(input: PreviewInput): Occurrence[] {
    if (!(input.endTime.getTime() > input.startTime.getTime())) {
      throw new AppError('invalidWindow', { field: 'endTime' }, 'endTime must be after startTime');
    }
    assertRule(this.expander, input.rrule);
    const from = input.from ?? input.startTime;
    return occurrencesBetween(input, from, new Date(from.getTime() + HORIZON_MS), this.expander, input.count ?? 10);
  }
}
