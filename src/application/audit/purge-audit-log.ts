import { auditRetentionCutoff } from '../../domain/audit/audit-entry';
import type { Clock } from '../shared/clock';
import type { AuditLogReader } from './ports';

/** Deletes audit entries older than the configured retention; answers how many went. */
export class PurgeAuditLog {
  constructor(
    private readonly log: AuditLogReader,
    private readonly clock: Clock,
    private readonly retentionDays: number,
  ) {}

  execute(): Promise<number> {
    return this.log.purgeBefore(auditRetentionCutoff(this.clock.now(), this.retentionDays));
  }
}
