import type { Credentials } from '../../domain/checks/check-request';
import type { CredentialCipher } from '../../application/monitoring/ports';
import type { CheckPlanner, ClaimedCheck, PlannedCheck } from '../../application/scheduling/ports';
import { checkRequestFor, type SchedulableMonitor } from '../../application/scheduling/monitor-check-request';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

interface Row {
  id: string;
  public_id: string;
  organization_id: number;
  customer_id: number;
  kind: SchedulableMonitor['kind'];
  monitoring_type: SchedulableMonitor['monitoringType'];
  status: string;
  check_interval_seconds: number;
  timeout_seconds: number;
  url: string | null;
  hostname: string | null;
  port: number | null;
  check_mode: 'protocol' | 'tcp' | null;
  connect_host: string | null;
  connect_port: number | null;
  connect_tls_insecure: boolean;
  config: SchedulableMonitor['config'];
  credentials_ciphertext: string | null;
  last_heartbeat_at: Date | null;
  created_at: Date;
}

/** Loads the monitors of a claimed batch in one query and maps each to the check it runs. */
export class SqlCheckPlanner implements CheckPlanner {
  constructor(
    private readonly sql: SqlRunner,
    private readonly cipher: CredentialCipher,
  ) {}

  async plan(checks: readonly ClaimedCheck[]): Promise<{ planned: PlannedCheck[]; dropped: ClaimedCheck[] }> {
    const ids = [...new Set(checks.map((c) => c.monitorId))];
    const rows =
      ids.length === 0
        ? []
        : await this.sql.query<Row>(
            sql`SELECT id, public_id, organization_id, customer_id, kind, monitoring_type, status, check_interval_seconds,
              timeout_seconds, url, hostname, port, check_mode, connect_host, connect_port, connect_tls_insecure,
              config, credentials_ciphertext, last_heartbeat_at, created_at
       FROM monitors WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::bigint)`,
            { prepare: true },
          );
    const monitors = new Map(rows.map((row) => [Number(row.id), row]));
    const planned: PlannedCheck[] = [];
    const dropped: ClaimedCheck[] = [];
    for (const check of checks) {
      const row = monitors.get(check.monitorId);
      const request = row && row.status === 'active' ? checkRequestFor(this.toMonitor(row)) : null;
      if (!row || !request) dropped.push(check);
      else planned.push({ check, request, organizationId: row.organization_id, customerId: row.customer_id });
    }
    return { planned, dropped };
  }

  private toMonitor(row: Row): SchedulableMonitor {
    const stored = row.credentials_ciphertext
      ? (JSON.parse(this.cipher.decrypt(row.credentials_ciphertext, `monitor:${row.public_id}`)) as
          Credentials | { secrets: Record<string, string> })
      : null;
    return {
      id: Number(row.id),
      organizationId: row.organization_id,
      customerId: row.customer_id,
      kind: row.kind,
      monitoringType: row.monitoring_type,
      checkIntervalSeconds: row.check_interval_seconds,
      timeoutSeconds: row.timeout_seconds,
      url: row.url,
      hostname: row.hostname,
      port: row.port,
      checkMode: row.check_mode,
      connectHost: row.connect_host,
      connectPort: row.connect_port,
      connectTlsInsecure: row.connect_tls_insecure,
      config: row.config ?? {},
      lastHeartbeatAt: row.last_heartbeat_at,
      createdAt: new Date(row.created_at),
      credentials: stored && !('secrets' in stored) ? stored : null,
      secrets: stored && 'secrets' in stored ? stored.secrets : {},
    };
  }
}
