import { ContainerModule, type ResolutionContext } from 'inversify';
import { CLOCK, type Clock } from '../../application/shared/clock';
import { AUDIT_LOG_READER, AUDIT_TRAIL, type AuditLogReader, type AuditTrail } from '../../application/audit/ports';
import { ListAuditLog } from '../../application/audit/list-audit-log';
import { PurgeAuditLog } from '../../application/audit/purge-audit-log';
import { SqlAuditLog } from '../../infrastructure/audit/sql-audit-log';
import type { SqlRunner } from '../../infrastructure/persistence/database';
import type { AppConfig } from '../config';
import { CONFIG, CONTEXT_SQL, SQL } from '../tokens';

/** The audit log: entries written by the database trigger and by sign-ins, read by admins, purged after retention. */
export const auditModule = new ContainerModule(({ bind }) => {
  const single = <T>(id: symbol | (abstract new (...args: never[]) => T), make: (c: ResolutionContext) => T) =>
    bind<T>(id as never)
      .toDynamicValue(make)
      .inSingletonScope();
  single(SqlAuditLog, (c) => new SqlAuditLog(c.get<SqlRunner>(CONTEXT_SQL), c.get<SqlRunner>(SQL)));
  single<AuditTrail>(AUDIT_TRAIL, (c) => c.get(SqlAuditLog));
  single<AuditLogReader>(AUDIT_LOG_READER, (c) => c.get(SqlAuditLog));
  single(ListAuditLog, (c) => new ListAuditLog(c.get<AuditLogReader>(AUDIT_LOG_READER)));
  single(
    PurgeAuditLog,
    (c) => new PurgeAuditLog(c.get<AuditLogReader>(AUDIT_LOG_READER), c.get<Clock>(CLOCK), c.get<AppConfig>(CONFIG).auditLogRetentionDays),
  );
});
