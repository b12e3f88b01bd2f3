import { PackageConfig, type QuotaTier } from '../../domain/tenancy/package-config';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { PackageConfigRepository } from '../../application/tenancy/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRunner } from '../persistence/database';
import { racing, versionSaved } from '../persistence/optimistic';
import { dateOf, jsonOf } from '../persistence/row';
import { sqlOf } from '../persistence/sql-transaction';
import { raw, sql } from '../persistence/sql';
import { refCondition } from '../persistence/tenant-scope';
import { jsonb, uniqueWrite } from './unique-write';

const COLUMNS =
  raw(`p.id, p.public_id, p.organization_id, p.key, p.display_name, p.description, p.min_check_interval_minutes, p.quota_tiers,
  p.sms_monthly_allowance, p.is_default, p.created_at, p.updated_at, p.version`);

interface PackageRow {
  id: number;
  public_id: string;
  organization_id: number;
  key: string;
  display_name: string;
  description: string | null;
  min_check_interval_minutes: number;
  quota_tiers: unknown;
  sms_monthly_allowance: number;
  is_default: boolean;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
}

/** A stored package (no constructor: the row was valid when written). */
function packageOf(row: PackageRow): PackageConfig {
  return Object.assign(Object.create(PackageConfig.prototype) as PackageConfig, {
    id: Number(row.id),
    publicId: row.public_id,
    organizationId: Number(row.organization_id),
    key: row.key,
    displayName: row.display_name,
    description: row.description,
    minCheckIntervalMinutes: Number(row.min_check_interval_minutes),
    quotaTiers: jsonOf<QuotaTier[]>(row.quota_tiers),
    smsMonthlyAllowance: Number(row.sms_monthly_allowance),
    isDefault: row.is_default,
    createdAt: dateOf(row.created_at),
    updatedAt: dateOf(row.updated_at),
    version: Number(row.version),
  });
}

/** An organization's packages in the `sql` kit; a save names the version it read (a lost race is `conflict`). */
export class SqlPackageConfigRepository implements PackageConfigRepository {
  constructor(private readonly sql: SqlRunner) {}

  async list(scope: TenantScope): Promise<PackageConfig[]> {
    return this.listOn(this.sql, scope);
  }

  async listIn(scope: TenantScope, tx: Transaction): Promise<PackageConfig[]> {
    return this.listOn(sqlOf(tx), scope);
  }

  private async listOn(on: SqlRunner, scope: TenantScope): Promise<PackageConfig[]> {
    const rows = await on.query<PackageRow>(
      sql`SELECT ${COLUMNS} FROM package_configs p WHERE p.organization_id = ${scope.organizationId} ORDER BY p.id ASC`,
    );
    return rows.map(packageOf);
  }

  findByRefIn(scope: TenantScope, ref: string, tx: Transaction): Promise<PackageConfig | null> {
    return this.findByRef(scope, ref, sqlOf(tx));
  }

  async findByRef(scope: TenantScope, ref: string, on: SqlRunner = this.sql): Promise<PackageConfig | null> {
    const condition = refCondition(ref, 'p');
    if (!condition) return null;
    const [row] = await on.query<PackageRow>(
      sql`SELECT ${COLUMNS} FROM package_configs p WHERE ${condition} AND p.organization_id = ${scope.organizationId}`,
    );
    return row ? packageOf(row) : null;
  }

  async add(config: PackageConfig, tx: Transaction): Promise<PackageConfig> {
    const c = config;
    await this.unflagOtherDefaults(c, tx);
    const [row] = await uniqueWrite('packageKeyTaken', () =>
      sqlOf(tx).query<{ id: number }>(
        sql`INSERT INTO package_configs (public_id, organization_id, key, display_name, description, min_check_interval_minutes, quota_tiers,
            sms_monthly_allowance, is_default, created_at, updated_at, version)
          VALUES (${c.publicId}, ${c.organizationId}, ${c.key}, ${c.displayName}, ${c.description}, ${c.minCheckIntervalMinutes},
            ${jsonb(c.quotaTiers)}, ${c.smsMonthlyAllowance}, ${c.isDefault}, ${c.createdAt}, ${c.updatedAt}, ${c.version})
          RETURNING id`,
      ),
    );
    c.id = Number(row!.id);
    return c;
  }

  async addBuiltInIfNone(config: PackageConfig, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(
      sql`INSERT INTO package_configs (public_id, organization_id, key, display_name, description, min_check_interval_minutes,
         quota_tiers, sms_monthly_allowance, is_default, created_at, updated_at)
       SELECT ${config.publicId}, ${config.organizationId}, ${config.key}, ${config.displayName}, ${config.description}, ${config.minCheckIntervalMinutes}, CAST(${JSON.stringify(config.quotaTiers)} AS jsonb), ${config.smsMonthlyAllowance}, ${config.isDefault}, ${config.createdAt}, ${config.updatedAt}
       WHERE NOT EXISTS (SELECT 1 FROM package_configs WHERE organization_id = ${config.organizationId})
       ON CONFLICT DO NOTHING`,
    );
  }

  async save(config: PackageConfig, tx: Transaction): Promise<void> {
    const c = config;
    await this.unflagOtherDefaults(c, tx);
    const rows = await uniqueWrite('packageKeyTaken', () =>
      sqlOf(tx).query(
        sql`UPDATE package_configs SET key = ${c.key}, display_name = ${c.displayName}, description = ${c.description},
            min_check_interval_minutes = ${c.minCheckIntervalMinutes}, quota_tiers = ${jsonb(c.quotaTiers)},
            sms_monthly_allowance = ${c.smsMonthlyAllowance}, is_default = ${c.isDefault}, updated_at = ${c.updatedAt}, version = version + 1
          WHERE id = ${c.id} AND organization_id = ${c.organizationId} AND version = ${c.version} RETURNING version`,
      ),
    );
    versionSaved(c, rows);
    const top = c.quotaTiers.length - 1;
    await sqlOf(tx).query(
      sql`UPDATE customers SET quota_tier_index = ${top} WHERE package_id = ${c.id} AND organization_id = ${c.organizationId} AND quota_tier_index > ${top}`,
    );
  }

  async remove(config: PackageConfig, tx: Transaction): Promise<void> {
    await racing(() =>
      sqlOf(tx).query(sql`DELETE FROM package_configs WHERE id = ${config.id} AND organization_id = ${config.organizationId}`),
    );
  }

  /** One default per organization: a package flagged default takes the flag from the others. */
  private async unflagOtherDefaults(config: PackageConfig, tx: Transaction): Promise<void> {
    if (!config.isDefault) return;
    await racing(() =>
      sqlOf(tx).query(
        sql`UPDATE package_configs SET is_default = false, version = version + 1 WHERE organization_id = ${config.organizationId} AND is_default AND id <> ${config.id ?? 0}`,
      ),
    );
  }
}
