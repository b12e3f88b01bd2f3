/**
 * The service for bench/detect.bench.ts: the whole application as `npm start` runs it (check worker
 * serving three locations, notification worker), on its own embedded PostgreSQL, storms off so each
 * incident is told alone (detection is measured, not grouping). IPC:
 *   -> {type: 'ready', url}
 *   {type: 'seed', settings: [{name, intervalMinutes, consecutive, locations, monitors: [{kind, url?, port?}]}], receiver}
 *     -> {monitors: [{setting, index, publicId, rows: [{intervalMs, phaseMs}]}]}   rows: its locations' schedule rows (in location order) on the phases production gave them   one customer and webhook channel
 *     (to receiver/<setting>) per setting; every monitor starts with an up alert state at each location
 *   {type: 'incidents'} -> {rows: [{publicId, createdMs}]}   when each monitor's first incident was opened
 */
import 'reflect-metadata';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { RequestContext } from '@mikro-orm/postgresql';
import { loadConfig } from '../../src/main/config';
import { startApplication } from '../../src/main/application';
import { CreateNotificationChannel } from '../../src/application/notifications/create-notification-channel';
import type { Actor } from '../../src/application/shared/actor';
import { sql } from '../../src/infrastructure/persistence/sql';

export const DETECT_LOCATIONS = ['bench-1', 'bench-2', 'bench-3'];

interface SeedSetting {
  name: string;
  intervalMinutes: number;
  consecutive: number;
  locations: number;
  monitors: Array<{ kind: 'http' | 'tcp'; url?: string; port?: number }>;
}

async function main() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-detect-bench-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    MONITOR_LOCATIONS: DETECT_LOCATIONS.join(','),
    CHECK_LOCATIONS: DETECT_LOCATIONS.join(','),
    CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
    NOTIFY_DIGEST_WINDOW_SECONDS: '0',
  });
  const logger = pino({ level: process.env.BENCH_LOG_LEVEL ?? 'error' }, pino.destination(2));
  const app = await startApplication(config, { jobs: false, logger });
  const { sql: runner, orm } = app.database;

  process.on('message', async (m: { type: string; id: number; settings?: SeedSetting[]; receiver?: string }) => {
    if (m.type === 'stop') {
      await app.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
    if (m.type === 'incidents') {
      const rows = await runner.query<{ public_id: string; created_ms: string }>(
        sql`SELECT mo.public_id, (extract(epoch FROM min(i.created_at)) * 1000)::bigint::text AS created_ms
           FROM incidents i JOIN monitors mo ON mo.id = i.monitor_id GROUP BY mo.public_id`,
      );
      process.send!({ id: m.id, rows: rows.map((r) => ({ publicId: r.public_id, createdMs: Number(r.created_ms) })) });
    }
    if (m.type !== 'seed') return;
    const [org] = await runner.query<{ id: number }>(
      sql`INSERT INTO organizations (public_id, name, created_at, updated_at) VALUES (gen_random_uuid(), 'detect', now(), now()) RETURNING id`,
    );
    const actor: Actor = {
      kind: 'session',
      userId: null,
      role: 'admin',
      scope: { organizationId: org!.id, customerId: null },
      isPlatformAdmin: false,
      isPlatformSupporter: false,
      sessionId: null,
      tokenId: null,
      mfaEnabled: false,
      stepUpVerifiedAt: null,
      agentScopes: [],
    };
    const create = app.container.get(CreateNotificationChannel);
    const seeded: Array<{ setting: string; index: number; publicId: string; rows: Array<{ intervalMs: number; phaseMs: number }> }> = [];
    for (const setting of m.settings!) {
      const [customer] = await runner.query<{ id: number }>(
        sql`INSERT INTO customers (public_id, organization_id, name, created_at, updated_at) VALUES (gen_random_uuid(), ${org!.id}, ${setting.name}, now(), now()) RETURNING id`,
      );
      const locations = `{${DETECT_LOCATIONS.slice(0, setting.locations).join(',')}}`;
      for (const [index, target] of setting.monitors.entries()) {
        const [row] = await runner.query<{ id: string; public_id: string }>(
          target.kind === 'http'
            ? sql`INSERT INTO monitors (public_id, organization_id, customer_id, kind, monitoring_type, name, check_interval, locations, url,
                 timeout_seconds, alert_consecutive_checks, alert_location_threshold, config)
               VALUES (gen_random_uuid(), ${org!.id}, ${customer!.id}, 'website', 'http', ${`${setting.name} ${index}`}, ${setting.intervalMinutes}, ${locations}::text[], ${target.url}, 5, ${setting.consecutive}, 0.50, '{"checkSslEnabled": false}'::jsonb)
               RETURNING id, public_id`
            : sql`INSERT INTO monitors (public_id, organization_id, customer_id, kind, monitoring_type, name, check_interval, locations, hostname, port,
                 timeout_seconds, alert_consecutive_checks, alert_location_threshold)
               VALUES (gen_random_uuid(), ${org!.id}, ${customer!.id}, 'tcp', 'tcp', ${`${setting.name} ${index}`}, ${setting.intervalMinutes}, ${locations}::text[], '127.0.0.1', ${target.port}, 5, ${setting.consecutive}, 0.50)
               RETURNING id, public_id`,
        );
        // Up at every location, as after its first results: the first failure counts at once.
        await runner.query(
          sql`INSERT INTO monitor_alert_states (monitor_id, organization_id, customer_id, check_interval_seconds, locations, updated_at)
           SELECT ${row!.id}, ${org!.id}, ${customer!.id}, ${setting.intervalMinutes} * 60, jsonb_object_agg(l, jsonb_build_object('consecutiveFailures', 0, 'failingSince', null, 'lastStatus', 'up',
             'lastReasonCode', null, 'lastCheckedAt', (now() - interval '1 second')::text)), now()
           FROM unnest(${locations}::text[]) AS l`,
        );
        const rows = await runner.query<{ interval_ms: string; phase_ms: string }>(
          sql`SELECT interval_ms, phase_ms FROM check_schedule WHERE monitor_id = ${row!.id} ORDER BY location`,
        );
        seeded.push({
          setting: setting.name,
          index,
          publicId: row!.public_id,
          rows: rows.map((r) => ({ intervalMs: Number(r.interval_ms), phaseMs: Number(r.phase_ms) })),
        });
      }
      await RequestContext.create(orm.em, () =>
        create.execute(actor, {
          name: `hook ${setting.name}`,
          type: 'webhook',
          customerId: customer!.id,
          config: { url: `${m.receiver}/${setting.name}` },
        }),
      );
    }
    process.send!({ id: m.id, monitors: seeded });
  });
  process.send!({ type: 'ready', url: app.url });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
