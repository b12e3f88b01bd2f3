import type { EntitySchema } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { applyAuditContext } from '../infrastructure/audit/audit-connection';
import { openDatabase, type Database } from '../infrastructure/persistence/database';
import { identitySchemas } from '../infrastructure/identity/identity.schemas';
import { tenancySchemas } from '../infrastructure/tenancy/tenancy.schemas';
import { monitoringSchemas } from '../infrastructure/monitoring/monitoring.schemas';
import { notificationSchemas } from '../infrastructure/notifications/notifications.schemas';

/** The ORM mappings of every context (the persistence kit names none of them). */
export const entitySchemas: readonly EntitySchema[] = [...identitySchemas, ...tenancySchemas, ...monitoringSchemas, ...notificationSchemas];

/**
 * The service's database: the persistence kit opened on every context's ORM mappings, with the
 * current request's audit context put on each connection before its first statement. Applies
 * pending migrations and answers once the schema is current.
 */
export function openServiceDatabase(url: string, logger?: Logger): Promise<Database> {
  return openDatabase(url, { entities: entitySchemas, prepareConnection: applyAuditContext }, logger);
}
