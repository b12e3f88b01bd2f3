import type { EntitySchema } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { applyAuditContext } from '../infrastructure/audit/audit-connection';
import { openDatabase, type Database } from '../infrastructure/persistence/database';
import type { ContextModule } from './modules/context-module';
import { CONTEXTS } from './contexts';

/** The ORM mappings of every context, each declared by its module (the persistence kit names none of them). */
export const entitySchemasOf = (contexts: readonly ContextModule[]): readonly EntitySchema[] =>
  contexts.flatMap((context) => context.entities ?? []);

/** The ORM mappings of the service's contexts. */
export const entitySchemas: readonly EntitySchema[] = entitySchemasOf(CONTEXTS);

/**
 * The service's database: the persistence kit opened on every context's ORM mappings, with the
 * current request's audit context put on each connection before its first statement. Applies
 * pending migrations and answers once the schema is current.
 */
export function openServiceDatabase(url: string, logger?: Logger, contexts: readonly ContextModule[] = CONTEXTS): Promise<Database> {
  return openDatabase(url, { entities: entitySchemasOf(contexts), prepareConnection: applyAuditContext }, logger);
}
