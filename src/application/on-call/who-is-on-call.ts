import { onCallAt, onCallTimeline, type OnCall } from '../../domain/on-call/on-call';
import type { Schedule } from '../../domain/on-call/schedule';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import { loadTeam } from './im-access';
import type { ScheduleRepository, TeamRepository } from './ports';
import { loadSchedule } from './schedule-access';

/** How far ahead `until` looks: a shift longer than this reads as lasting at least that long. */
const UNTIL_HORIZON_MS = 35 * 86_400_000;

export interface ScheduleOnCall {
  readonly schedule: Schedule;
  readonly onCall: (OnCall & { readonly until: Date | null }) | null;
}

/**
 * GET /api/im/on-call: for each schedule (one, a team's, or the organization's), who is on call at
 * `at` (default now) and until when that person stays on call (null beyond the horizon).
 */
export class WhoIsOnCall {
  constructor(
    private readonly schedules: ScheduleRepository,
    private readonly teams: TeamRepository,
    private readonly clock: Clock,
  ) {}

  async execute(
    actor: Actor,
    input: { at?: Date; scheduleId?: string; teamId?: string },
  ): Promise<{ at: Date; schedules: ScheduleOnCall[] }> {
    const at = input.at ?? this.clock.now();
    const organizationId = actor.scope.organizationId;
    if (input.teamId !== undefined) await loadTeam(this.teams, actor, input.teamId);
    const schedules =
      input.scheduleId !== undefined
        ? [await loadSchedule(this.schedules, actor, input.scheduleId)].filter(
            (s) => input.teamId === undefined || s.teamId === input.teamId,
          )
        : await this.schedules.list(organizationId, { teamId: input.teamId });
    return { at, schedules: schedules.map((schedule) => ({ schedule, onCall: this.onCall(schedule, at) })) };
  }

  private onCall(schedule: Schedule, at: Date): ScheduleOnCall['onCall'] {
    const who = onCallAt(schedule, at);
    if (!who) return null;
    const horizon = new Date(at.getTime() + UNTIL_HORIZON_MS);
    const first = onCallTimeline(schedule, at, horizon)[0];
    return { ...who, until: first && first.end < horizon ? first.end : null };
  }
}
