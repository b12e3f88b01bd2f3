import type { PlatformSettings, PlatformSettingsRepository } from '../../application/identity/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

interface Row {
  agent_auth_enabled: boolean;
  agent_writes_enabled: boolean;
  service_auth_enabled: boolean;
}

const present = (row: Row): PlatformSettings => ({
  agentAuthEnabled: row.agent_auth_enabled,
  agentWritesEnabled: row.agent_writes_enabled,
  serviceAuthEnabled: row.service_auth_enabled,
});

/** The single row of platform switches, cached a few seconds (the agent gate reads it per request). */
export class SqlPlatformSettingsRepository implements PlatformSettingsRepository {
  private cached: { value: PlatformSettings; until: number } | null = null;

  constructor(
    private readonly sql: SqlRunner,
    private readonly ttlMs = 3_000,
  ) {}

  async get(): Promise<PlatformSettings> {
    if (this.cached && this.cached.until > Date.now()) return this.cached.value;
    const [row] = await this.sql.query<Row>(sql`SELECT * FROM platform_settings WHERE id = 1`);
    const value = present(row!);
    this.cached = { value, until: Date.now() + this.ttlMs };
    return value;
  }

  async update(change: Partial<PlatformSettings>): Promise<PlatformSettings> {
    const [row] = await this.sql.query<Row>(sql`UPDATE platform_settings SET
         agent_auth_enabled = COALESCE(${change.agentAuthEnabled ?? null}, agent_auth_enabled),
         agent_writes_enabled = COALESCE(${change.agentWritesEnabled ?? null}, agent_writes_enabled),
         service_auth_enabled = COALESCE(${change.serviceAuthEnabled ?? null}, service_auth_enabled),
         updated_at = now()
       WHERE id = 1 RETURNING *`);
    this.cached = null;
    return present(row!);
  }
}
