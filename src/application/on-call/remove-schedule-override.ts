import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { ScheduleRepository, TeamRepository } from './ports';
import { assertScheduleWritable, loadSchedule } from './schedule-access';

/** DELETE /api/im/schedules/{id}/overrides/{overrideId}; an unknown override answers notFound. */
export class RemoveScheduleOverride {
  constructor(
    private readonly schedules: ScheduleRepository,
    private readonly teams: TeamRepository,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { scheduleId: string; overrideId: string }): Promise<void> {
    const schedule = await loadSchedule(this.schedules, actor, input.scheduleId);
    await assertScheduleWritable(this.teams, actor, schedule.teamId);
    if (!schedule.removeOverride(input.overrideId)) throw new AppError('notFound');
    await this.tx.run((tx) => this.schedules.save(schedule, tx));
  }
}
