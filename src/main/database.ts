import type { Logger } from 'pino';
import { applyAuditContext } from '../infrastructure/audit/audit-connection';
import { openDatabase, type Database } from '../infrastructure/persistence/database';

/**
 * The service's database: the persistence kit opened with the current request's audit context put
 * on each connection before its first statement. Applies pending migrations and answers once the
 * schema is current.
 */
export function openServiceDatabase(url: string, logger?: Logger): Promise<Database> {
  return openDatabase(url, { prepareConnection: applyAuditContext }, logger);
}
