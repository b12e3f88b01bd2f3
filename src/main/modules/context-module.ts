import type { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import type { Clock } from '../../application/shared/clock';
import type { Database } from '../../infrastructure/persistence/database';
import type { IntakeDefinition, RouterDefinition } from '../../interfaces/http/shared/router-deps';
import type { JobFactory } from '../../interfaces/jobs/job-definition';
import type { AppConfig } from '../config';

/** What the host is started with, for the bindings that depend on it (configuration, database, clock). */
export interface HostEnvironment {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly database: Database;
  readonly clock?: Clock;
}

/**
 * Everything a bounded context brings to the host, declared in its module file: its bindings
 * (adapters to ports, use cases to themselves), its routers (each documents its routes in OpenAPI),
 * its intakes and its jobs. The composition root only lists the contexts (`src/main/contexts.ts`).
 */
export interface ContextModule {
  readonly name: string;
  readonly bindings: ContainerModule | ((host: HostEnvironment) => ContainerModule);
  readonly routers?: readonly RouterDefinition[];
  /** APIs mounted before the host's parsers, admission and audit, for callers that are not users (probes). */
  readonly intakes?: readonly IntakeDefinition[];
  readonly jobs?: readonly JobFactory[];
}
