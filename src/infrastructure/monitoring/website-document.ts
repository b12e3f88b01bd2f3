import { HEARTBEAT_PATH, websiteRecord } from '../../application/monitoring/monitor-records';
import { MONITOR_COLUMNS, toItem, type MonitorRow } from './monitor-rows';
import type { TransactionRunner } from '../../application/shared/transaction';
import type { UnitOfWorkSql } from '../persistence/database';
import { sqlOf } from '../persistence/sql-transaction';
import { raw, sql, type Sql } from '../persistence/sql';

/**
 * The website read model: monitors.document holds each website's record as compact JSON, rendered
 * by websiteRecord (the one definition of the record) on every write, so a page read is its stored
 * texts joined. Triggers mark a document stale (NULL) on changes made elsewhere; reads render stale
 * ones from their rows, and the host renders them again at start. A change to the record's shape
 * needs a migration marking every document stale (UPDATE monitors SET document = NULL).
 */

/** How JSON.stringify writes the start of a stored ping URL (a JSON string cannot hold this unescaped). */
const HEARTBEAT_MARK = `"heartbeatUrl":"${HEARTBEAT_PATH}`;

/** The stored form of a website's record. */
export const renderWebsiteDocument = (row: MonitorRow): string => JSON.stringify(websiteRecord(toItem(row)));

/** SQL turning the ping paths of documents in `expression` (fixed text) into absolute URLs; binds `baseUrl` (baseUrlParam). */
export const withBaseUrl = (expression: string, baseUrl: string): Sql =>
  sql`replace(${raw(expression)}, '${raw(HEARTBEAT_MARK)}', ${baseUrl})`;

/** The parameter for withBaseUrl: the mark with the public base URL before the path. */
export const baseUrlParam = (publicBaseUrl: string) => `"heartbeatUrl":"${JSON.stringify(publicBaseUrl).slice(1, -1)}${HEARTBEAT_PATH}`;

/** withBaseUrl for documents rendered on read. */
export const applyBaseUrl = (json: string, param: string) => json.replaceAll(HEARTBEAT_MARK, () => param);

const lockAndRead = (
  monitorIds: readonly number[],
) => sql`SELECT ${raw(MONITOR_COLUMNS)} FROM monitors m JOIN customers c ON c.id = m.customer_id
  WHERE m.id = ANY(string_to_array(${monitorIds.join(',')}, ',')::bigint[]) AND m.kind = 'website' ORDER BY m.id FOR UPDATE OF m`;
const store = (documents: string) =>
  sql`UPDATE monitors m SET document = d.document FROM json_to_recordset(${documents}::json) AS d(id bigint, document text) WHERE m.id = d.id`;

/**
 * Renders and stores the documents of the websites listed (other monitors are skipped). The rows
 * stay locked from read to store: run it in a transaction (the caller's, or its own) with the unit
 * of work's SQL, which joins it.
 */
export async function refreshWebsiteDocuments(tx: UnitOfWorkSql, monitorIds: readonly number[]): Promise<void> {
  if (monitorIds.length === 0) return;
  const rows = await tx.query<MonitorRow>(lockAndRead(monitorIds));
  if (rows.length === 0) return;
  await tx.query(store(JSON.stringify(rows.map((row) => ({ id: Number(row.id), document: renderWebsiteDocument(row) })))));
}

const stale = (batchSize: number) =>
  sql`SELECT id FROM monitors WHERE kind = 'website' AND document IS NULL ORDER BY id LIMIT ${batchSize} FOR UPDATE SKIP LOCKED`;

/**
 * Renders every stale document, a batch per transaction; rows another process holds are left to
 * it. Answers how many were rendered.
 */
export async function renderStaleWebsiteDocuments(transactions: TransactionRunner, batchSize = 500): Promise<number> {
  let rendered = 0;
  for (;;) {
    const batch = await transactions.run(async (tx) => {
      const ids = (await sqlOf(tx).query<{ id: string }>(stale(batchSize))).map((row) => Number(row.id));
      await refreshWebsiteDocuments(sqlOf(tx), ids);
      return ids.length;
    });
    rendered += batch;
    if (batch < batchSize) return rendered;
  }
}
