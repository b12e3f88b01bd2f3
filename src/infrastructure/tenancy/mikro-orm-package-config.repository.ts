import { PackageConfig } from '../../domain/tenancy/package-config';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { PackageConfigRepository } from '../../application/tenancy/ports';
import { refFilter } from '../persistence/tenant-scope';
import { TenancyRepository } from './tenancy-repository';
import { sql } from '../persistence/sql';

export class MikroOrmPackageConfigRepository extends TenancyRepository implements PackageConfigRepository {
  list(scope: TenantScope): Promise<PackageConfig[]> {
    return this.em.find(PackageConfig, { organizationId: scope.organizationId }, { orderBy: { id: 'asc' } });
  }

  async findByRef(scope: TenantScope, ref: string): Promise<PackageConfig | null> {
    const filter = refFilter(ref);
    return filter ? this.em.findOne(PackageConfig, { ...filter, organizationId: scope.organizationId }) : null;
  }

  async add(config: PackageConfig): Promise<PackageConfig> {
    await this.unflagOtherDefaults(config);
    this.em.persist(config);
    await this.flushUnique('packageKeyTaken');
    return config;
  }

  async addBuiltInIfNone(config: PackageConfig): Promise<void> {
    await this.sql.query(
      sql`INSERT INTO package_configs (public_id, organization_id, key, display_name, description, min_check_interval_minutes,
         quota_tiers, sms_monthly_allowance, is_default, created_at, updated_at)
       SELECT ${config.publicId}, ${config.organizationId}, ${config.key}, ${config.displayName}, ${config.description}, ${config.minCheckIntervalMinutes}, CAST(${JSON.stringify(config.quotaTiers)} AS jsonb), ${config.smsMonthlyAllowance}, ${config.isDefault}, ${config.createdAt}, ${config.updatedAt}
       WHERE NOT EXISTS (SELECT 1 FROM package_configs WHERE organization_id = ${config.organizationId})
       ON CONFLICT DO NOTHING`,
    );
  }

  async save(config: PackageConfig): Promise<void> {
    await this.unflagOtherDefaults(config);
    await this.flushUnique('packageKeyTaken');
    await this.sql.query(
      sql`UPDATE customers SET quota_tier_index = ${config.quotaTiers.length - 1} WHERE package_id = ${config.id} AND organization_id = ${config.organizationId} AND quota_tier_index > ${config.quotaTiers.length - 1}`,
    );
  }

  async remove(config: PackageConfig): Promise<void> {
    this.em.remove(config);
    await this.flush();
  }

  /** One default per organization: a package flagged default takes the flag from the others. */
  private async unflagOtherDefaults(config: PackageConfig): Promise<void> {
    if (!config.isDefault) return;
    await this.sql.query(
      sql`UPDATE package_configs SET is_default = false, version = version + 1 WHERE organization_id = ${config.organizationId} AND is_default AND id <> ${config.id ?? 0}`,
    );
  }
}
