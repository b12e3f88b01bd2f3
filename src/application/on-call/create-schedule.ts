import type { TransactionRunner } from '../shared/transaction';
import { Schedule } from '../../domain/on-call/schedule';
import type { RotationLayer } from '../../domain/on-call/rotation';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import { assertUsersExist } from './im-access';
import type { ImPeople, ScheduleRepository, TeamRepository } from './ports';
import { assertScheduleWritable } from './schedule-access';

export interface NewScheduleInput {
  teamId: string;
  name: string;
  description: string | null;
  timezone: string;
  layers: RotationLayer[];
}

/**
 * POST /api/im/schedules: imTeamNotFound for a team that is not the organization's, imTeamWriteDenied
 * unless an organization admin or an admin of that team, userNotFound for a layer user outside it.
 */
export class CreateSchedule {
  constructor(
    private readonly schedules: ScheduleRepository,
    private readonly teams: TeamRepository,
    private readonly people: ImPeople,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: NewScheduleInput): Promise<Schedule> {
    await assertScheduleWritable(this.teams, actor, input.teamId);
    const organizationId = actor.scope.organizationId;
    const schedule = Schedule.create({ id: this.ids.uuid(), organizationId, ...input }, this.clock.now());
    await assertUsersExist(this.people, organizationId, schedule.userIds());
    await this.tx.run((tx) => this.schedules.add(schedule, tx));
    return schedule;
  }
}
