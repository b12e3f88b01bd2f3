import type { TransactionRunner } from '../shared/transaction';
import type { Schedule, ScheduleOverride } from '../../domain/on-call/schedule';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import { assertUsersExist } from './im-access';
import type { ImPeople, ScheduleRepository, TeamRepository } from './ports';
import { assertScheduleWritable, loadSchedule } from './schedule-access';

/**
 * POST /api/im/schedules/{id}/overrides: imScheduleNotFound for a schedule outside the organization,
 * userNotFound for a user outside it. The newest override wins where overrides overlap.
 */
export class AddScheduleOverride {
  constructor(
    private readonly schedules: ScheduleRepository,
    private readonly teams: TeamRepository,
    private readonly people: ImPeople,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(
    actor: Actor,
    input: { scheduleId: string; userId: string; start: Date; end: Date },
  ): Promise<{ schedule: Schedule; override: ScheduleOverride }> {
    const schedule = await loadSchedule(this.schedules, actor, input.scheduleId);
    await assertScheduleWritable(this.teams, actor, schedule.teamId);
    await assertUsersExist(this.people, schedule.organizationId, [input.userId]);
    const override: ScheduleOverride = {
      id: this.ids.uuid(),
      userId: input.userId,
      start: input.start,
      end: input.end,
      createdAt: this.clock.now(),
    };
    schedule.addOverride(override);
    await this.tx.run((tx) => this.schedules.save(schedule, tx));
    return { schedule, override };
  }
}
