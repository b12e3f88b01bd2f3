import { auditContext } from './audit-context';

/** The part of a node-postgres client this needs (knex's connections are node-postgres clients). */
interface PgClient {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

const APPLIED = Symbol('monitoring.audit');
type Tracked = PgClient & { [APPLIED]?: string };

/**
 * Puts the current request's audit context on a connection just taken from a pool, as the session
 * setting `monitoring.audit` the audit trigger reads (the database's prepareConnection, passed in by
 * src/main/database.ts). It is set again whenever it differs
 * from what the connection holds, so a connection used by a user's request and then by the check
 * engine carries '' (no caller) for the engine: nothing a caller did not do is attributed to them.
 * Costs a round trip only when the setting changes.
 */
export async function applyAuditContext(client: PgClient): Promise<void> {
  const tracked = client as Tracked;
  const wanted = auditContext.setting();
  if ((tracked[APPLIED] ?? '') === wanted) return;
  await client.query("SELECT set_config('monitoring.audit', $1, false)", [wanted]);
  tracked[APPLIED] = wanted;
}
