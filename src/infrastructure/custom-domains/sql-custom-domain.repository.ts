import { AppError } from '../../domain/shared/app-error';
import {
  CustomDomain,
  PENDING_LIFETIME_MS,
  type CustomDomainKind,
  type CustomDomainStatus,
} from '../../domain/custom-domains/custom-domain';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { CustomDomainRepository } from '../../application/custom-domains/ports';
import type { SqlRunner } from '../persistence/database';
import { raw, sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

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
    ? sql`d.organization_id = ${scope.organizationId}`
    : sql`d.organization_id = ${scope.organizationId} AND d.customer_id = ${scope.customerId}`;

/** Entries that still count at `now`: not pending for 7 days or more. */
const live = (now: Date) => sql`(d.status <> 'pending' OR d.created_at > ${new Date(now.getTime() - PENDING_LIFETIME_MS)})`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Which unique index a write broke, if it broke one. */
function uniqueViolation(error: unknown): string | null {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return null;
  return e.constraint ?? e.message ?? '';
}

/**
 * Entries in plain SQL: reads and the purge on the pool, the other writes on the caller's transaction.
 * The claim rule lives in the schema: the partial
 * unique index on hostname over verified and active entries turns the losing write of a race into
 * domainAlreadyClaimed.
 */
export class SqlCustomDomainRepository implements CustomDomainRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(domain: CustomDomain, now: Date, tx: Transaction): Promise<CustomDomain> {
    const on = sqlOf(tx);
    await on.query(sql`DELETE FROM custom_domains d WHERE d.hostname = ${domain.hostname} AND NOT ${live(now)}`);
    try {
      const [row] = await on.query<{ id: number }>(
        sql`INSERT INTO custom_domains (public_id, organization_id, customer_id, hostname, kind, status_page_id, status, verification_token,
           created_at, updated_at, verified_at, activated_at, version)
         VALUES (${domain.publicId}, ${domain.organizationId}, ${domain.customerId}, ${domain.hostname}, ${domain.kind}, (SELECT id FROM status_pages WHERE public_id = ${domain.statusPageId}::uuid), ${domain.status}, ${domain.verificationToken}, ${domain.createdAt}, ${domain.updatedAt}, ${domain.verifiedAt}, ${domain.activatedAt}, 1) RETURNING id`,
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
    const rows = await this.sql.query<DomainRow>(
      sql`SELECT ${raw(COLUMNS)} FROM ${raw(FROM)} WHERE ${scopeSql(scope)} AND d.public_id = ${ref} AND ${live(now)}`,
    );
    return rows[0] ? domainOf(rows[0]) : null;
  }

  async list(scope: TenantScope, now: Date): Promise<CustomDomain[]> {
    const rows = await this.sql.query<DomainRow>(
      sql`SELECT ${raw(COLUMNS)} FROM ${raw(FROM)} WHERE ${scopeSql(scope)} AND ${live(now)} ORDER BY d.hostname, d.id`,
    );
    return rows.map(domainOf);
  }

  async claimedElsewhere(hostname: string, organizationId: number): Promise<boolean> {
    const rows = await this.sql.query(
      sql`SELECT 1 FROM custom_domains WHERE hostname = ${hostname} AND status IN ('verified', 'active') AND organization_id <> ${organizationId}`,
    );
    return rows.length > 0;
  }

  async save(domain: CustomDomain, tx: Transaction): Promise<void> {
    let rows: unknown[];
    try {
      rows = await sqlOf(tx).query(
        sql`UPDATE custom_domains SET status = ${domain.status}, verified_at = ${domain.verifiedAt}, activated_at = ${domain.activatedAt}, updated_at = ${domain.updatedAt}, version = version + 1
         WHERE id = ${domain.id} AND version = ${domain.version} RETURNING version`,
      );
    } catch (error) {
      if (uniqueViolation(error)?.includes('custom_domains_claimed_hostname'))
        throw new AppError('domainAlreadyClaimed', { hostname: domain.hostname });
      throw error;
    }
    if (rows.length === 0) throw new AppError('conflict', {}, 'The custom domain changed meanwhile; read it again');
    domain.version += 1;
  }

  async remove(domain: CustomDomain, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(sql`DELETE FROM custom_domains WHERE id = ${domain.id}`);
  }

  async purgeExpired(now: Date): Promise<number> {
    const rows = await this.sql.query(sql`DELETE FROM custom_domains d WHERE NOT ${live(now)} RETURNING 1`);
    return rows.length;
  }
}
