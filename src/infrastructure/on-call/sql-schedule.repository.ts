import { sqlOf } from '../persistence/sql-transaction';
import { AppError } from '../../domain/shared/app-error';
import { Schedule, type ScheduleOverride } from '../../domain/on-call/schedule';
import type { Restriction, RotationLayer, RotationType, ShiftUnit } from '../../domain/on-call/rotation';
import type { ScheduleRepository } from '../../application/on-call/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRunner, UnitOfWorkSql } from '../persistence/database';
import { isUuid } from '../persistence/uuid';
import { empty, raw, sql } from '../persistence/sql';

interface LayerJson {
  name: string;
  rotation_type: RotationType;
  shift_count: number | null;
  shift_unit: ShiftUnit | null;
  starts_at: string;
  ends_at: string | null;
  users: string[];
  restrictions: Restriction[];
}
interface OverrideJson {
  id: string;
  user_id: string;
  starts_at: string;
  ends_at: string;
  created_at: string;
}
interface ScheduleRow {
  id: string;
  organization_id: number;
  team_id: string;
  name: string;
  description: string | null;
  timezone: string;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
  layers: LayerJson[] | string;
  overrides: OverrideJson[] | string;
}

const SELECT = `SELECT s.id, s.organization_id, s.team_id, s.name, s.description, s.timezone, s.created_at, s.updated_at, s.version,
    COALESCE((SELECT json_agg(json_build_object('name', l.name, 'rotation_type', l.rotation_type, 'shift_count', l.shift_count,
                'shift_unit', l.shift_unit, 'starts_at', l.starts_at, 'ends_at', l.ends_at, 'users', l.users,
                'restrictions', l.restrictions) ORDER BY l.position)
                FROM im_schedule_layers l WHERE l.schedule_id = s.id), '[]') AS layers,
    COALESCE((SELECT json_agg(json_build_object('id', o.id, 'user_id', o.user_id, 'starts_at', o.starts_at, 'ends_at', o.ends_at,
                'created_at', o.created_at) ORDER BY o.starts_at, o.created_at)
                FROM im_schedule_overrides o WHERE o.schedule_id = s.id), '[]') AS overrides
  FROM im_schedules s`;

const json = <T>(value: T | string): T => (typeof value === 'string' ? JSON.parse(value) : value);

const toLayer = (l: LayerJson): RotationLayer => ({
  name: l.name,
  rotationType: l.rotation_type,
  shiftLength: l.shift_count !== null && l.shift_unit !== null ? { count: l.shift_count, unit: l.shift_unit } : null,
  startsAt: new Date(l.starts_at),
  endsAt: l.ends_at ? new Date(l.ends_at) : null,
  users: l.users,
  restrictions: l.restrictions,
});

const toOverride = (o: OverrideJson): ScheduleOverride => ({
  id: o.id,
  userId: o.user_id,
  start: new Date(o.starts_at),
  end: new Date(o.ends_at),
  createdAt: new Date(o.created_at),
});

const toSchedule = (row: ScheduleRow) =>
  new Schedule({
    id: row.id,
    organizationId: Number(row.organization_id),
    teamId: row.team_id,
    name: row.name,
    description: row.description,
    timezone: row.timezone,
    layers: json(row.layers).map(toLayer),
    overrides: json(row.overrides).map(toOverride),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    version: Number(row.version),
  });

/** Schedules with their layers and overrides, written together on the caller's transaction. */
export class SqlScheduleRepository implements ScheduleRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(schedule: Schedule, tx: Transaction): Promise<void> {
    const db = sqlOf(tx);
    await db.query(sql`INSERT INTO im_schedules (id, organization_id, team_id, name, description, timezone, created_at, updated_at, version)
       VALUES (${schedule.id}, ${schedule.organizationId}, ${schedule.teamId}, ${schedule.name}, ${schedule.description}, ${schedule.timezone}, ${schedule.createdAt}, ${schedule.updatedAt}, 1)`);
    await this.writeChildren(db, schedule);
  }

  async find(organizationId: number, id: string): Promise<Schedule | null> {
    if (!isUuid(id)) return null;
    const rows = await this.sql.query<ScheduleRow>(sql`${raw(SELECT)} WHERE s.organization_id = ${organizationId} AND s.id = ${id}`);
    return rows[0] ? toSchedule(rows[0]) : null;
  }

  listIn(organizationId: number, filter: { teamId?: string }, tx: Transaction): Promise<Schedule[]> {
    return this.list(organizationId, filter, sqlOf(tx));
  }

  async list(organizationId: number, filter: { teamId?: string } = {}, on: SqlRunner = this.sql): Promise<Schedule[]> {
    if (filter.teamId !== undefined && !isUuid(filter.teamId)) return [];
    const byTeam = filter.teamId !== undefined ? sql` AND s.team_id = ${filter.teamId}` : empty;
    const rows = await on.query<ScheduleRow>(
      sql`${raw(SELECT)} WHERE s.organization_id = ${organizationId}${byTeam} ORDER BY s.name, s.id`,
    );
    return rows.map(toSchedule);
  }

  async save(schedule: Schedule, tx: Transaction): Promise<void> {
    const db = sqlOf(tx);
    const rows =
      await db.query(sql`UPDATE im_schedules SET team_id = ${schedule.teamId}, name = ${schedule.name}, description = ${schedule.description}, timezone = ${schedule.timezone}, updated_at = ${schedule.updatedAt}, version = version + 1
        WHERE id = ${schedule.id} AND organization_id = ${schedule.organizationId} AND version = ${schedule.version} RETURNING version`);
    if (rows.length === 0) throw new AppError('conflict', {}, 'The schedule changed meanwhile; read it again');
    await db.query(sql`DELETE FROM im_schedule_layers WHERE schedule_id = ${schedule.id}`);
    await db.query(sql`DELETE FROM im_schedule_overrides WHERE schedule_id = ${schedule.id}`);
    await this.writeChildren(db, schedule);
    schedule.version += 1;
  }

  async remove(schedule: Schedule, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(sql`DELETE FROM im_schedules WHERE id = ${schedule.id} AND organization_id = ${schedule.organizationId}`);
  }

  private async writeChildren(db: UnitOfWorkSql, schedule: Schedule): Promise<void> {
    if (schedule.layers.length) {
      await db.query(sql`INSERT INTO im_schedule_layers (schedule_id, position, name, rotation_type, shift_count, shift_unit, starts_at, ends_at, users, restrictions)
         SELECT ${schedule.id}, x.position, x.name, x.rotation_type, x.shift_count, x.shift_unit, x.starts_at, x.ends_at, x.users, x.restrictions
           FROM jsonb_to_recordset(${JSON.stringify(
             schedule.layers.map((l, position) => ({
               position,
               name: l.name,
               rotation_type: l.rotationType,
               shift_count: l.shiftLength?.count ?? null,
               shift_unit: l.shiftLength?.unit ?? null,
               starts_at: l.startsAt.toISOString(),
               ends_at: l.endsAt?.toISOString() ?? null,
               users: l.users,
               restrictions: l.restrictions,
             })),
           )}::jsonb) AS x(position int, name text, rotation_type text, shift_count int, shift_unit text,
                starts_at timestamptz, ends_at timestamptz, users jsonb, restrictions jsonb)`);
    }
    if (schedule.overrides.length) {
      await db.query(sql`INSERT INTO im_schedule_overrides (id, schedule_id, user_id, starts_at, ends_at, created_at)
         SELECT x.id, ${schedule.id}, x.user_id, x.starts_at, x.ends_at, x.created_at
           FROM jsonb_to_recordset(${JSON.stringify(
             schedule.overrides.map((o) => ({
               id: o.id,
               user_id: o.userId,
               starts_at: o.start.toISOString(),
               ends_at: o.end.toISOString(),
               created_at: o.createdAt.toISOString(),
             })),
           )}::jsonb) AS x(id uuid, user_id uuid, starts_at timestamptz, ends_at timestamptz, created_at timestamptz)`);
    }
  }
}
