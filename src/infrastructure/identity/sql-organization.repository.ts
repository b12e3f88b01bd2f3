import type { Organization } from '../../domain/identity/organization';
import type { OrganizationRepository } from '../../application/identity/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRunner } from '../persistence/database';
import { racing, versionSaved } from '../persistence/optimistic';
import { sqlOf } from '../persistence/sql-transaction';
import { sql, type Sql } from '../persistence/sql';
import type { CallerCache } from './caller-cache';
import { ORGANIZATION_COLUMNS, organizationOf } from './identity-rows';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INT = /^\d{1,9}$/;

/**
 * Organizations in the `sql` kit; a save names the version it read (a lost race is `conflict`) and
 * drops the cached callers, whose organization (status, MFA flags) it may change.
 */
export class SqlOrganizationRepository implements OrganizationRepository {
  constructor(
    private readonly sql: SqlRunner,
    private readonly callers: CallerCache,
  ) {}

  async add(organization: Organization, tx: Transaction): Promise<Organization> {
    const o = organization;
    const [row] = await racing(() =>
      sqlOf(tx).query<{ id: number }>(
        sql`INSERT INTO organizations (public_id, name, status, vat_id, country_code, billing_email, require_mfa_admins, require_mfa_editors,
          require_mfa_readonly, incident_management_enabled, auto_quota_upgrade, cancelled_at, accent_color, logo, created_at, updated_at, version)
        VALUES (${o.publicId}, ${o.name}, ${o.status}, ${o.vatId}, ${o.countryCode}, ${o.billingEmail}, ${o.requireMfaAdmins},
          ${o.requireMfaEditors}, ${o.requireMfaReadonly}, ${o.incidentManagementEnabled}, ${o.autoQuotaUpgrade}, ${o.cancelledAt},
          ${o.accentColor}, ${o.logo}, ${o.createdAt}, ${o.updatedAt}, ${o.version})
        RETURNING id`,
      ),
    );
    organization.id = Number(row!.id);
    return organization;
  }

  findById(id: number): Promise<Organization | null> {
    return this.one(sql`id = ${id}`);
  }

  async findByRef(ref: string | number): Promise<Organization | null> {
    const value = String(ref);
    if (INT.test(value)) return this.one(sql`id = ${Number(value)}`);
    if (UUID.test(value)) return this.one(sql`public_id = ${value.toLowerCase()}`);
    return null;
  }

  async list(page: { page: number; perPage: number }): Promise<{ items: Organization[]; total: number }> {
    const [rows, [count]] = await Promise.all([
      this.sql.query(
        sql`SELECT ${ORGANIZATION_COLUMNS} FROM organizations ORDER BY id ASC LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
      ),
      this.sql.query<{ total: number }>(sql`SELECT count(*)::int AS total FROM organizations`),
    ]);
    return { items: rows.map(organizationOf), total: Number(count?.total ?? 0) };
  }

  async save(organization: Organization, tx: Transaction): Promise<void> {
    const o = organization;
    const rows = await racing(() =>
      sqlOf(tx).query(
        sql`UPDATE organizations SET name = ${o.name}, status = ${o.status}, vat_id = ${o.vatId}, country_code = ${o.countryCode},
          billing_email = ${o.billingEmail}, require_mfa_admins = ${o.requireMfaAdmins}, require_mfa_editors = ${o.requireMfaEditors},
          require_mfa_readonly = ${o.requireMfaReadonly}, incident_management_enabled = ${o.incidentManagementEnabled},
          auto_quota_upgrade = ${o.autoQuotaUpgrade}, cancelled_at = ${o.cancelledAt}, accent_color = ${o.accentColor}, logo = ${o.logo},
          updated_at = ${o.updatedAt}, version = version + 1
        WHERE id = ${o.id} AND version = ${o.version} RETURNING version`,
      ),
    );
    versionSaved(organization, rows);
    this.callers.clear();
  }

  private async one(where: Sql): Promise<Organization | null> {
    const [row] = await this.sql.query(sql`SELECT ${ORGANIZATION_COLUMNS} FROM organizations WHERE ${where}`);
    return row ? organizationOf(row) : null;
  }
}
