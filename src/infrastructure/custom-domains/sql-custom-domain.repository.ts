import { AppError } from '../../domain/shared/app-error';
import {
  CustomDomain,
  PENDING_LIFETIME_MS,
  type CustomDomainKind,
  type CustomDomainStatus,
} from '../../domain/custom-domains/custom-domain';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { CustomDomainRepository } from '../../application/custom-domains/ports';
import type { UnitOfWorkSql } from '../persistence/database';

interface DomainRow {
  id: number;
  public_id: string;
  organization_id: number;
  customer_id: number | null;
  hostname: string;
  kind: CustomDomainKind;
  status_page_id: string | null;
  status: CustomDomainStatus;
  verification_token: string;
  created_at: Date | string;
  updated_at: Date | string;
  verified_at: Date | string | null;
  activated_at: Date | string | null;
  version: number;
}

/** The page is named by its public id (the row id stays inside). */
const COLUMNS = `d.id, d.public_id, d.organization_id, d.customer_id, d.hostname, d.kind, p.public_id AS status_page_id, d.status,
  d.verification_token, d.created_at, d.updated_at, d.verified_at, d.activated_at, d.version`;
const FROM = 'custom_domains d LEFT JOIN status_pages p ON p.id = d.status_page_id';

const dateOrNull = (value: Date | string | null) => (value === null ? null : new Date(value));

const domainOf = (row: DomainRow) =>
  new CustomDomain({
    id: Number(row.id),
    publicId: row.public_id,
    organizationId: Number(row.organization_id),
    customerId: row.customer_id === null ? null : Number(row.customer_id),
    hostname: row.hostname,
    kind: row.kind,
    statusPageId: row.status_page_id,
    status: row.status,
    verificationToken: row.verification_token,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    verifiedAt: dateOrNull(row.verified_at),
    activatedAt: dateOrNull(row.activated_at),
    version: Number(row.version),
  });

/** An organization sees all its entries; a customer scope those of its customer's status pages. */
const scopeSql = (scope: TenantScope) =>
  scope.customerId === null
    ? { sql: 'd.organization_id = ?', params: [scope.organizationId] as unknown[] }
    : { sql: 'd.organization_id = ? AND d.customer_id = ?', params: [scope.organizationId, scope.customerId] as unknown[] };

/** Entries that still count: not pending for 7 days or more. */
const LIVE = `(d.status <> 'pending' OR d.created_at > ?)`;
const liveSince = (now: Date) => new Date(now.getTime() - PENDING_LIFETIME_MS);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Which unique index a write broke, if it broke one. */
function uniqueViolation(error: unknown): string | null {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return null;
  return e.constraint ?? e.message ?? '';
}

/**
 * Entries in plain SQL on the current unit of work. The claim rule lives in the schema: the partial
 * unique index on hostname over verified and active entries turns the losing write of a race into
 * domainAlreadyClaimed.
 */
export class SqlCustomDomainRepository implements CustomDomainRepository {
  constructor(private readonly sql: UnitOfWorkSql) {}

  async add(domain: CustomDomain, now: Date): Promise<CustomDomain> {
    await this.sql.query(`DELETE FROM custom_domains d WHERE d.hostname = ? AND NOT ${LIVE}`, [domain.hostname, liveSince(now)]);
    try {
      const [row] = await this.sql.query<{ id: number }>(
        `INSERT INTO custom_domains (public_id, organization_id, customer_id, hostname, kind, status_page_id, status, verification_token,
           created_at, updated_at, verified_at, activated_at, version)
         VALUES (?, ?, ?, ?, ?, (SELECT id FROM status_pages WHERE public_id = ?::uuid), ?, ?, ?, ?, ?, ?, 1) RETURNING id`,
        [
          domain.publicId,
          domain.organizationId,
          domain.customerId,
          domain.hostname,
          domain.kind,
          domain.statusPageId,
          domain.status,
          domain.verificationToken,
          domain.createdAt,
          domain.updatedAt,
          domain.verifiedAt,
          domain.activatedAt,
        ],
      );
      domain.id = Number(row!.id);
      return domain;
    } catch (error) {
      const broken = uniqueViolation(error);
      if (broken?.includes('custom_domains_organization_hostname')) throw new AppError('customDomainExists', { hostname: domain.hostname });
      throw error;
    }
  }

  async findByRef(scope: TenantScope, ref: string, now: Date): Promise<CustomDomain | null> {
    if (!UUID.test(ref)) return null;
    const where = scopeSql(scope);
    const rows = await this.sql.query<DomainRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE ${where.sql} AND d.public_id = ? AND ${LIVE}`, [
      ...where.params,
      ref,
      liveSince(now),
    ]);
    return rows[0] ? domainOf(rows[0]) : null;
  }

  async list(scope: TenantScope, now: Date): Promise<CustomDomain[]> {
    const where = scopeSql(scope);
    const rows = await this.sql.query<DomainRow>(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE ${where.sql} AND ${LIVE} ORDER BY d.hostname, d.id`,
      [...where.params, liveSince(now)],
    );
    return rows.map(domainOf);
  }

  async claimedElsewhere(hostname: string, organizationId: number): Promise<boolean> {
    const rows = await this.sql.query(
      `SELECT 1 FROM custom_domains WHERE hostname = ? AND status IN ('verified', 'active') AND organization_id <> ?`,
      [hostname, organizationId],
    );
    return rows.length > 0;
  }

  async save(domain: CustomDomain): Promise<void> {
    let rows: unknown[];
    try {
      rows = await this.sql.query(
        `UPDATE custom_domains SET status = ?, verified_at = ?, activated_at = ?, updated_at = ?, version = version + 1
         WHERE id = ? AND version = ? RETURNING version`,
        [domain.status, domain.verifiedAt, domain.activatedAt, domain.updatedAt, domain.id, domain.version],
      );
    } catch (error) {
      if (uniqueViolation(error)?.includes('custom_domains_claimed_hostname'))
        throw new AppError('domainAlreadyClaimed', { hostname: domain.hostname });
      throw error;
    }
    if (rows.length === 0) throw new AppError('conflict', {}, 'The custom domain changed meanwhile; read it again');
    domain.version += 1;
  }

  async remove(domain: CustomDomain): Promise<void> {
    await this.sql.query('DELETE FROM custom_domains WHERE id = ?', [domain.id]);
  }

  async purgeExpired(now: Date): Promise<number> {
    const rows = await this.sql.query(`DELETE FROM custom_domains d WHERE NOT ${LIVE} RETURNING 1`, [liveSince(now)]);
    return rows.length;
  }
}
