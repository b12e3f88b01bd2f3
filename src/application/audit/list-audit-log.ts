import { AppError } from '../../domain/shared/app-error';
import { requireAction, type Actor } from '../shared/actor';
import type { AuditLogFilter, AuditLogPage, AuditLogReader } from './ports';

/**
 * The audit log of the caller's organization, newest first. Admins only; a customer-bound admin
 * (a customer-scoped token or user) reads its customer's entries and nothing else.
 */
export class ListAuditLog {
  constructor(private readonly log: AuditLogReader) {}

  async execute(actor: Actor, filter: AuditLogFilter, page: { page: number; perPage: number }): Promise<AuditLogPage> {
    requireAction(actor, 'auditLog.read');
    if (filter.from && filter.to && filter.from > filter.to) throw new AppError('invalidDateRange');
    return this.log.list(actor.scope, filter, page);
  }
}
