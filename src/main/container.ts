import 'reflect-metadata';
import { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Clock } from '../application/shared/clock';
import type { Database } from '../infrastructure/persistence/database';
import type { AppConfig } from './config';
import { CONTEXTS } from './contexts';
import type { ContextModule } from './modules/context-module';
import { enableLinearRegExp } from '../infrastructure/protocols/shared/linear-regexp';

/** The one composition root: every context's bindings (src/main/contexts.ts), over the shared platform adapters. */
export function createContainer(
  config: AppConfig,
  logger: Logger,
  database: Database,
  clock?: Clock,
  contexts: readonly ContextModule[] = CONTEXTS,
): Container {
  enableLinearRegExp(); // API chains validate and run customers' patterns with it
  const container = new Container({ defaultScope: 'Singleton' });
  const host = { config, logger, database, clock };
  for (const context of contexts) {
    container.load(typeof context.bindings === 'function' ? context.bindings(host) : context.bindings);
  }
  return container;
}
