import { AppError } from '../../domain/shared/app-error';
import { onCallTimeline, type OnCallSegment } from '../../domain/on-call/on-call';
import type { Schedule } from '../../domain/on-call/schedule';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { ScheduleRepository } from './ports';
import { loadSchedule } from './schedule-access';

export const MAX_TIMELINE_DAYS = 92;
const DAY_MS = 86_400_000;

/** GET /api/im/schedules/{id}/on-call: the final schedule over [from, to) (default: the next 14 days), at most 92 days. */
export class GetScheduleTimeline {
  constructor(
    private readonly schedules: ScheduleRepository,
    private readonly clock: Clock,
  ) {}

  async execute(
    actor: Actor,
    input: { id: string; from?: Date; to?: Date },
  ): Promise<{ schedule: Schedule; from: Date; to: Date; segments: OnCallSegment[] }> {
    const schedule = await loadSchedule(this.schedules, actor, input.id);
    const from = input.from ?? this.clock.now();
    const to = input.to ?? new Date(from.getTime() + 14 * DAY_MS);
    if (to <= from || to.getTime() - from.getTime() > MAX_TIMELINE_DAYS * DAY_MS) {
      throw new AppError('validationFailed', {
        issues: [{ path: ['to'], message: `After from, at most ${MAX_TIMELINE_DAYS} days later`, code: 'custom' }],
      });
    }
    return { schedule, from, to, segments: onCallTimeline(schedule, from, to) };
  }
}
