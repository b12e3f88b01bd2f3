import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import { AppError } from '../../domain/shared/app-error';
import { AlertSource, type AlertSourceKind, type GenericMapping } from '../../domain/incident-management/alert-source';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { AlertSourceRepository } from '../../application/incident-management/ports';
import type { SqlRunner } from '../persistence/database';
import { raw, sql } from '../persistence/sql';

interface SourceRow {
  id: number;
  public_id: string;
  organization_id: number;
  name: string;
  kind: AlertSourceKind;
  mapping: GenericMapping | string;
  team_id: string | null;
  escalation_policy_id: string | null;
  customer_id: number | null;
  token_hash: string;
  token_hint: string;
  created_by_user_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
}

const COLUMNS = `s.id, s.public_id, s.organization_id, s.name, s.kind, s.mapping, s.team_id, s.escalation_policy_id, s.customer_id,
  s.token_hash, s.token_hint, s.created_by_user_id, s.created_at, s.updated_at, s.version`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toSource(row: SourceRow): AlertSource {
  const source = new AlertSource({
    publicId: row.public_id,
    organizationId: Number(row.organization_id),
    name: row.name,
    kind: row.kind,
    mapping: typeof row.mapping === 'string' ? JSON.parse(row.mapping) : row.mapping,
    routing: {
      teamId: row.team_id,
      escalationPolicyId: row.escalation_policy_id,
      customerId: row.customer_id === null ? null : Number(row.customer_id),
    },
    tokenHash: row.token_hash,
    tokenHint: row.token_hint,
    createdByUserId: row.created_by_user_id,
    now: new Date(row.created_at),
  });
  source.id = Number(row.id);
  source.updatedAt = new Date(row.updated_at);
  source.version = Number(row.version);
  return source;
}

/** Alert sources in plain SQL; every statement but the token lookup names the organization. */
export class SqlAlertSourceRepository implements AlertSourceRepository {
  constructor(
    private readonly sql: SqlRunner,
    private readonly pool: SqlRunner = sql,
  ) {}

  async add(scope: TenantScope, source: AlertSource, tx: Transaction): Promise<AlertSource> {
    const [row] = await sqlOf(tx).query<{ id: number }>(
      sql`INSERT INTO im_alert_sources (public_id, organization_id, name, kind, mapping, team_id, escalation_policy_id, customer_id,
         token_hash, token_hint, created_by_user_id, created_at, updated_at, version)
       VALUES (${source.publicId}, ${scope.organizationId}, ${source.name}, ${source.kind}, ${JSON.stringify(source.mapping)}::jsonb, ${source.routing.teamId}, ${source.routing.escalationPolicyId}, ${source.routing.customerId}, ${source.tokenHash}, ${source.tokenHint}, ${source.createdByUserId}, ${source.createdAt}, ${source.updatedAt}, 1) RETURNING id`,
    );
    source.id = Number(row!.id);
    return source;
  }

  async findByRef(scope: TenantScope, ref: string): Promise<AlertSource | null> {
    if (!UUID.test(ref)) return null;
    const rows = await this.sql.query<SourceRow>(
      sql`SELECT ${raw(COLUMNS)} FROM im_alert_sources s WHERE s.organization_id = ${scope.organizationId} AND s.public_id = ${ref.toLowerCase()}`,
    );
    return rows[0] ? toSource(rows[0]) : null;
  }

  async findByTokenHash(tokenHash: string): Promise<{ source: AlertSource; imEnabled: boolean } | null> {
    // The ingest path's one lookup, outside any unit of work: a prepared statement on the plain pool.
    const rows = await this.pool.query<SourceRow & { im_enabled: boolean }>(
      sql`SELECT ${raw(COLUMNS)}, o.incident_management_enabled AS im_enabled
         FROM im_alert_sources s JOIN organizations o ON o.id = s.organization_id
        WHERE s.token_hash = ${tokenHash} AND o.status NOT IN ('suspended', 'deleted')`,
      { prepare: true },
    );
    return rows[0] ? { source: toSource(rows[0]), imEnabled: Boolean(rows[0].im_enabled) } : null;
  }

  async list(scope: TenantScope): Promise<AlertSource[]> {
    const rows = await this.sql.query<SourceRow>(
      sql`SELECT ${raw(COLUMNS)} FROM im_alert_sources s WHERE s.organization_id = ${scope.organizationId} ORDER BY s.created_at, s.id`,
    );
    return rows.map(toSource);
  }

  async save(scope: TenantScope, source: AlertSource, tx: Transaction): Promise<void> {
    const rows = await sqlOf(tx).query(
      sql`UPDATE im_alert_sources SET name = ${source.name}, mapping = ${JSON.stringify(source.mapping)}::jsonb, team_id = ${source.routing.teamId}, escalation_policy_id = ${source.routing.escalationPolicyId}, customer_id = ${source.routing.customerId}, updated_at = ${source.updatedAt},
         version = version + 1
       WHERE id = ${source.id} AND organization_id = ${scope.organizationId} AND version = ${source.version} RETURNING version`,
    );
    if (rows.length === 0) throw new AppError('conflict', {}, 'The alert source changed meanwhile; read it again');
    source.version += 1;
  }

  async remove(scope: TenantScope, source: AlertSource, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(sql`DELETE FROM im_alert_sources WHERE id = ${source.id} AND organization_id = ${scope.organizationId}`);
  }
}
