import { ConsentRequest, type ConsentStatus } from '../../domain/agent-access/consent-request';
import type { ConsentRequestRepository } from '../../application/agent-access/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRunner } from '../persistence/database';
import { racing, versionSaved } from '../persistence/optimistic';
import { dateOf, jsonOf, optionalDateOf } from '../persistence/row';
import { sqlOf } from '../persistence/sql-transaction';
import { raw, sql, type Sql } from '../persistence/sql';

const COLUMNS = raw(
  'id, code, registration_id, client_id, user_id, requested_scopes, granted_scopes, status, decided_at, created_at, updated_at, version',
);

interface ConsentRow {
  id: string;
  code: string;
  registration_id: string;
  client_id: string;
  user_id: string;
  requested_scopes: string[];
  granted_scopes: string[];
  status: ConsentStatus;
  decided_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
}

/** A stored consent request (no constructor: the row was valid when written). */
function consentOf(row: ConsentRow): ConsentRequest {
  return Object.assign(Object.create(ConsentRequest.prototype) as ConsentRequest, {
    id: row.id,
    code: row.code,
    registrationId: row.registration_id,
    clientId: row.client_id,
    userId: row.user_id,
    requestedScopes: jsonOf<string[]>(row.requested_scopes),
    grantedScopes: jsonOf<string[]>(row.granted_scopes),
    status: row.status,
    decidedAt: optionalDateOf(row.decided_at),
    createdAt: dateOf(row.created_at),
    updatedAt: dateOf(row.updated_at),
    version: Number(row.version),
  });
}

/** Consent requests in the `sql` kit; a save names the version it read (a lost race is `conflict`). */
export class SqlConsentRequestRepository implements ConsentRequestRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(request: ConsentRequest, tx: Transaction): Promise<void> {
    const c = request;
    await sqlOf(tx).query(
      sql`INSERT INTO agent_consent_requests (${COLUMNS}) VALUES (${c.id}, ${c.code}, ${c.registrationId}, ${c.clientId}, ${c.userId},
        ${JSON.stringify(c.requestedScopes)}, ${JSON.stringify(c.grantedScopes)}, ${c.status}, ${c.decidedAt}, ${c.createdAt},
        ${c.updatedAt}, ${c.version})`,
    );
  }

  findByCode(code: string): Promise<ConsentRequest | null> {
    return this.one(sql`code = ${code}`);
  }

  findByRegistration(registrationId: string): Promise<ConsentRequest | null> {
    return this.one(sql`registration_id = ${registrationId} ORDER BY created_at DESC LIMIT 1`);
  }

  async save(request: ConsentRequest, tx: Transaction): Promise<void> {
    const c = request;
    const rows = await racing(() =>
      sqlOf(tx).query(
        sql`UPDATE agent_consent_requests SET granted_scopes = ${JSON.stringify(c.grantedScopes)}, status = ${c.status},
          decided_at = ${c.decidedAt}, updated_at = ${c.updatedAt}, version = version + 1
        WHERE id = ${c.id} AND version = ${c.version} RETURNING version`,
      ),
    );
    versionSaved(c, rows);
  }

  private async one(where: Sql): Promise<ConsentRequest | null> {
    const [row] = await this.sql.query<ConsentRow>(sql`SELECT ${COLUMNS} FROM agent_consent_requests WHERE ${where}`);
    return row ? consentOf(row) : null;
  }
}
