import { CLOCK, type Clock } from '../../application/shared/clock';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { AUDIT_LOG_READER, AUDIT_TRAIL, type AuditLogReader, type AuditTrail } from '../../application/audit/ports';
import { ListAuditLog } from '../../application/audit/list-audit-log';
import { PurgeAuditLog } from '../../application/audit/purge-audit-log';
import { RecordToolCall } from '../../application/audit/record-tool-call';
import { SqlAuditLog } from '../../infrastructure/audit/sql-audit-log';
import type { SqlRunner } from '../../infrastructure/persistence/database';
import type { AppConfig } from '../config';
import { CONFIG, SQL } from '../tokens';
import { bindings } from './bindings';
import { auditLogRouter } from '../../interfaces/http/audit/audit-log.router';
import { auditLogPurgeJob } from '../../interfaces/jobs/audit-log-purge.job';
import type { ContextModule } from './context-module';

/** The audit log: entries written by the database trigger and by sign-ins, read by admins, purged after retention. */
export const auditModule = bindings(({ single }) => {
  single(SqlAuditLog, (c) => new SqlAuditLog(c.get<SqlRunner>(SQL)));
  single<AuditTrail>(AUDIT_TRAIL, (c) => c.get(SqlAuditLog));
  single<AuditLogReader>(AUDIT_LOG_READER, (c) => c.get(SqlAuditLog));
  single(RecordToolCall, (c) => new RecordToolCall(c.get<AuditTrail>(AUDIT_TRAIL), c.get(TRANSACTION_RUNNER)));
  single(ListAuditLog, (c) => new ListAuditLog(c.get<AuditLogReader>(AUDIT_LOG_READER)));
  single(
    PurgeAuditLog,
    (c) => new PurgeAuditLog(c.get<AuditLogReader>(AUDIT_LOG_READER), c.get<Clock>(CLOCK), c.get<AppConfig>(CONFIG).auditLogRetentionDays),
  );
});

export const auditContext: ContextModule = {
  name: 'audit',
  bindings: auditModule,
  routers: [auditLogRouter],
  jobs: [auditLogPurgeJob],
};
