import { sqlOf } from '../persistence/sql-transaction';
import { AppError } from '../../domain/shared/app-error';
import { Team, type TeamMember } from '../../domain/on-call/teams';
import type { TeamRepository } from '../../application/on-call/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRunner, UnitOfWorkSql } from '../persistence/database';
import { isUuid } from '../persistence/uuid';
import { raw, sql } from '../persistence/sql';

interface TeamRow {
  id: string;
  organization_id: number;
  name: string;
  description: string | null;
  members: TeamMember[] | string;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
}

const SELECT = `SELECT t.id, t.organization_id, t.name, t.description, t.created_at, t.updated_at, t.version,
    COALESCE((SELECT json_agg(json_build_object('userId', m.user_id, 'imRole', m.im_role) ORDER BY m.user_id)
                FROM im_team_members m WHERE m.team_id = t.id), '[]') AS members
  FROM im_teams t`;

const toTeam = (row: TeamRow) =>
  new Team({
    id: row.id,
    organizationId: Number(row.organization_id),
    name: row.name,
    description: row.description,
    members: typeof row.members === 'string' ? JSON.parse(row.members) : row.members,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    version: Number(row.version),
  });

/** Teams and their memberships; a team and its members are written on the caller's transaction (together or not at all). */
export class SqlTeamRepository implements TeamRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(team: Team, tx: Transaction): Promise<void> {
    const db = sqlOf(tx);
    await db.query(
      sql`INSERT INTO im_teams (id, organization_id, name, description, created_at, updated_at, version) VALUES (${team.id}, ${team.organizationId}, ${team.name}, ${team.description}, ${team.createdAt}, ${team.updatedAt}, 1)`,
    );
    await this.writeMembers(db, team);
  }

  async find(organizationId: number, id: string): Promise<Team | null> {
    if (!isUuid(id)) return null;
    const rows = await this.sql.query<TeamRow>(sql`${raw(SELECT)} WHERE t.organization_id = ${organizationId} AND t.id = ${id}`);
    return rows[0] ? toTeam(rows[0]) : null;
  }

  listIn(organizationId: number, tx: Transaction): Promise<Team[]> {
    return this.list(organizationId, sqlOf(tx));
  }

  async list(organizationId: number, on: SqlRunner = this.sql): Promise<Team[]> {
    const rows = await on.query<TeamRow>(sql`${raw(SELECT)} WHERE t.organization_id = ${organizationId} ORDER BY t.name, t.id`);
    return rows.map(toTeam);
  }

  async save(team: Team, tx: Transaction): Promise<void> {
    const db = sqlOf(tx);
    const rows =
      await db.query(sql`UPDATE im_teams SET name = ${team.name}, description = ${team.description}, updated_at = ${team.updatedAt}, version = version + 1
        WHERE id = ${team.id} AND organization_id = ${team.organizationId} AND version = ${team.version} RETURNING version`);
    if (rows.length === 0) throw new AppError('conflict', {}, 'The team changed meanwhile; read it again');
    await db.query(sql`DELETE FROM im_team_members WHERE team_id = ${team.id}`);
    await this.writeMembers(db, team);
    team.version += 1;
  }

  async remove(team: Team, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(sql`DELETE FROM im_teams WHERE id = ${team.id} AND organization_id = ${team.organizationId}`);
  }

  private async writeMembers(db: UnitOfWorkSql, team: Team): Promise<void> {
    if (team.members.length === 0) return;
    await db.query(sql`INSERT INTO im_team_members (team_id, user_id, im_role)
       SELECT ${team.id}, x.user_id, x.im_role FROM jsonb_to_recordset(${JSON.stringify(team.members.map((m) => ({ user_id: m.userId, im_role: m.imRole })))}::jsonb) AS x(user_id uuid, im_role text)`);
  }
}
