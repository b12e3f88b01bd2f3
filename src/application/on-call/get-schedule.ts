import type { Schedule } from '../../domain/on-call/schedule';
import type { Actor } from '../shared/actor';
import type { ScheduleRepository } from './ports';
import { loadSchedule } from './schedule-access';

/** GET /api/im/schedules/{id}. */
export class GetSchedule {
  constructor(private readonly schedules: ScheduleRepository) {}

  execute(actor: Actor, { id }: { id: string }): Promise<Schedule> {
    return loadSchedule(this.schedules, actor, id);
  }
}
