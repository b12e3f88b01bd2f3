import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import type { ExportArchiveWriter, ExportProgressListener } from '../../application/data-export/ports';
import type { SqlRunner } from '../persistence/database';
import { checkResults } from './check-results-resource';
import type { Cursor, ExportResource } from './export-resource';
import { ssoSettingsResource } from './sso-settings-resource';
import { sql, raw } from '../persistence/sql';
import { NOTIFIERS } from '../../domain/notifications/notifiers';
import { channelConfigRedaction } from './channel-config-redaction';

/** Rows per page: large enough that round trips do not dominate, small enough that a page is a few hundred kilobytes. */
const PAGE_ROWS = 2_000;
export type { ExportResource } from './export-resource';

/**
 * What an export leaves out of a table: columns dropped whole (`drop`) and columns written
 * redacted (`redact`: column -> SQL expression over the row `t`). The manifest lists both.
 */
export interface SecretHandling {
  readonly drop?: readonly string[];
  readonly redact?: Readonly<Record<string, { sql: string; how: string }>>;
}

/** Header values (Authorization, API keys) replaced, names kept. (No '?' operators here: the SQL runner numbers every '?' as a placeholder.) */
const headersRedacted = (json: string) =>
  `CASE WHEN jsonb_typeof(${json}->'headers') = 'object' THEN jsonb_set(${json}, '{headers}', coalesce((SELECT jsonb_object_agg(k, '[redacted]') FROM jsonb_object_keys(${json}->'headers') AS k), '{}'::jsonb)) ELSE ${json} END`;

/**
 * A table of the organization, keyed by its id: every column but the secrets, which are dropped or
 * written redacted as `secrets` says.
 */
function table(
  name: string,
  tableName: string,
  description: string,
  secrets: SecretHandling = {},
  idType: 'int' | 'uuid' = 'int',
): ExportResource {
  const start = idType === 'int' ? -1 : '00000000-0000-0000-0000-000000000000';
  const redacted = Object.entries(secrets.redact ?? {});
  const dropped = [...(secrets.drop ?? [])];
  const row =
    redacted.length === 0
      ? sql`to_jsonb(t) - ${dropped}::text[]`
      : sql`(to_jsonb(t) - ${dropped}::text[]) || jsonb_build_object(${raw(redacted.map(([column, { sql: expression }]) => `'${column}', ${expression}`).join(', '))})`;
  return {
    name,
    description,
    leftOut: [
      ...(secrets.drop ?? []).map((column) => ({ field: column, how: 'left out' })),
      ...redacted.map(([column, { how }]) => ({ field: column, how })),
    ],
    async count(runner, organizationId) {
      const [count] = await runner.query<{ n: string }>(
        sql`SELECT count(*) AS n FROM ${raw(tableName)} WHERE organization_id = ${organizationId}`,
      );
      return Number(count?.n ?? 0);
    },
    async page(runner, organizationId, after, limit) {
      const rows = await runner.query<{ key: string; row: unknown }>(
        sql`SELECT id::text AS key, ${row} AS row FROM ${raw(tableName)} t
          WHERE organization_id = ${organizationId} AND id > ${after ?? start}::${raw(idType === 'int' ? 'bigint' : 'uuid')} ORDER BY id LIMIT ${limit}`,
      );
      return { rows: rows.map((r) => r.row), next: rows.length === limit ? rows[rows.length - 1]!.key : null };
    },
  };
}

/** A channel's config as exported: what each notifier descriptor's fields say is redacted (channelConfigRedaction). */
const CHANNEL_CONFIG = channelConfigRedaction(NOTIFIERS);

/** What an export holds, in the archive's order. */
export const EXPORT_RESOURCES: readonly ExportResource[] = [
  table('customers', 'customers', 'Customers with their settings and custom field values'),
  table(
    'monitors',
    'monitors',
    'Monitors of every kind with their configuration (credentials, heartbeat tokens and URLs, request header values left out)',
    {
      drop: ['credentials_ciphertext', 'heartbeat_token', 'document'],
      redact: { config: { sql: headersRedacted('t.config'), how: 'header values replaced by [redacted]' } },
    },
  ),
  table('customer-domains', 'customer_domains', 'Watched customer domains'),
  table('customer-ips', 'customer_ips', 'Watched customer IP addresses'),
  table('tags', 'tags', 'Tags'),
  table('custom-fields', 'custom_fields', 'Custom field definitions'),
  table('incidents', 'incidents', 'Incidents of the check engine'),
  table('maintenance-windows', 'maintenance_windows', 'Maintenance windows'),
  table(
    'service-level-objectives',
    'service_level_objectives',
    'Service level objectives: target, window, subject and burn state (attainment is computed from the check results)',
  ),
  table(
    'notification-channels',
    'notification_channels',
    `Notification channels (signing secrets left out; URLs, which are credentials for chat webhooks, and header values${
      CHANNEL_CONFIG.credentials.length > 0 ? `, ${CHANNEL_CONFIG.credentials.join(', ')}` : ''
    } redacted)`,
    { drop: ['secret_ciphertext'], redact: { config: { sql: CHANNEL_CONFIG.sql, how: CHANNEL_CONFIG.how } } },
  ),
  table('change-requests', 'change_requests', 'Change requests'),
  table(
    'users',
    'users',
    'Members (password digests, two-step secrets and backup codes left out)',
    { drop: ['password_hash', 'totp_secret', 'backup_code_hashes'] },
    'uuid',
  ),
  ssoSettingsResource,
  checkResults,
  table('audit-log', 'audit_log', 'The audit log: who changed what and when, and sign-ins (secrets were redacted when recorded)', {
    drop: ['tx_id'],
  }),
];

/**
 * The export archive: a zip (yazl, streamed) of one JSON Lines file per resource and a manifest
 * (format, organization, time, per resource its file, description and row count). Rows are read a
 * page at a time and written through the zip stream with back-pressure, so memory is bounded by a
 * page whatever the organization's size. Written to a temporary name and renamed when complete, so
 * a half-written archive is never taken for a finished one.
 */
export class ZipExportArchiveWriter implements ExportArchiveWriter {
  constructor(
    private readonly sql: SqlRunner,
    private readonly resources: readonly ExportResource[] = EXPORT_RESOURCES,
    private readonly pageSize = PAGE_ROWS,
  ) {}

  async write(organizationId: number, path: string, onProgress: ExportProgressListener): Promise<{ bytes: number }> {
    const counts = new Map<string, number>();
    for (const resource of this.resources) counts.set(resource.name, await resource.count(this.sql, organizationId));
    const rowsTotal = [...counts.values()].reduce((a, b) => a + b, 0);
    let rowsDone = 0;
    await onProgress(0, rowsTotal);

    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const partial = `${path}.partial`;
    const zip = new ZipFile();
    const out = createWriteStream(partial, { mode: 0o600 });
    const written = pipeline(zip.outputStream, out);
    written.catch(() => undefined); // awaited below; a failure mid-way is handled there
    try {
      zip.addBuffer(
        Buffer.from(
          JSON.stringify(
            {
              format: 'monitoring-export/1',
              organizationId,
              createdAt: new Date().toISOString(),
              secretsLeftOut:
                "Every secret the organization holds is left out or redacted, file by file as each resource's " +
                '`leftOut` lists; records the archive does not hold (API tokens, status pages, organization SMTP, incident-' +
                'management sources and contact methods) carry secrets and are not exported at all.',
              resources: this.resources.map((r) => ({
                name: r.name,
                file: `${r.name}.jsonl`,
                description: r.description,
                rows: counts.get(r.name),
                leftOut: r.leftOut ?? [],
              })),
            },
            null,
            2,
          ),
        ),
        'manifest.json',
      );
      for (const resource of this.resources) {
        const { sql, pageSize } = this;
        const lines = async function* (): AsyncGenerator<string> {
          let after: Cursor | null = null;
          do {
            const page = await resource.page(sql, organizationId, after, pageSize);
            if (page.rows.length > 0) yield page.rows.map((row) => `${JSON.stringify(row)}\n`).join('');
            rowsDone += page.rows.length;
            await onProgress(rowsDone, Math.max(rowsTotal, rowsDone));
            after = page.next;
          } while (after !== null);
        };
        const entry = Readable.from(lines(), { objectMode: false });
        const ended = new Promise<void>((resolve, reject) => {
          entry.once('end', resolve);
          entry.once('error', reject);
        });
        zip.addReadStream(entry, `${resource.name}.jsonl`);
        await ended;
      }
      zip.end();
      await written;
      await rename(partial, path);
      return { bytes: out.bytesWritten };
    } catch (error) {
      out.destroy();
      await rm(partial, { force: true });
      throw error;
    }
  }
}
