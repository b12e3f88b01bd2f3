import type { TransactionRunner } from '../shared/transaction';
import type { Actor } from '../shared/actor';
import type { ScheduleRepository, TeamRepository } from './ports';
import { assertScheduleWritable, loadSchedule } from './schedule-access';

/** DELETE /api/im/schedules/{id}, with its layers, overrides and calendar feed. */
export class DeleteSchedule {
  constructor(
    private readonly schedules: ScheduleRepository,
    private readonly teams: TeamRepository,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, { id }: { id: string }): Promise<void> {
    const schedule = await loadSchedule(this.schedules, actor, id);
    await assertScheduleWritable(this.teams, actor, schedule.teamId);
    await this.tx.run((tx) => this.schedules.remove(schedule, tx));
  }
}
