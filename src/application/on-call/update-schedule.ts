import type { TransactionRunner } from '../shared/transaction';
import type { Schedule, ScheduleChange } from '../../domain/on-call/schedule';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import { assertUsersExist } from './im-access';
import type { ImPeople, ScheduleRepository, TeamRepository } from './ports';
import { assertScheduleWritable, loadSchedule } from './schedule-access';

/** PATCH /api/im/schedules/{id}: layers, when sent, replace every layer; moving it to another team needs the right to write both. */
export class UpdateSchedule {
  constructor(
    private readonly schedules: ScheduleRepository,
    private readonly teams: TeamRepository,
    private readonly people: ImPeople,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string; change: ScheduleChange }): Promise<Schedule> {
    const schedule = await loadSchedule(this.schedules, actor, input.id);
    await assertScheduleWritable(this.teams, actor, schedule.teamId);
    if (input.change.teamId !== undefined && input.change.teamId !== schedule.teamId) {
      await assertScheduleWritable(this.teams, actor, input.change.teamId);
    }
    schedule.change(input.change, this.clock.now());
    if (input.change.layers)
      await assertUsersExist(
        this.people,
        schedule.organizationId,
        schedule.layers.flatMap((l) => l.users),
      );
    await this.tx.run((tx) => this.schedules.save(schedule, tx));
    return schedule;
  }
}
