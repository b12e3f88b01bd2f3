import type { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import type { Clock } from '../../application/shared/clock';
import type { Database } from '../../infrastructure/persistence/database';
import type { AreaGate, IntakeDefinition, RouterDefinition, StreamedIntakeDefinition } from '../../interfaces/http/shared/router-deps';
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
 * its intakes, what the host's chain must know of its routes (streamed bodies, area gates, secrets in
 * URLs) and its jobs. The composition root only lists the contexts (`src/main/contexts.ts`).
 */
export interface ContextModule {
  readonly name: string;
  readonly bindings: ContainerModule | ((host: HostEnvironment) => ContainerModule);
  readonly routers?: readonly RouterDefinition[];
  /** APIs mounted before the host's parsers, admission and audit, for callers that are not users (probes). */
  readonly intakes?: readonly IntakeDefinition[];
  /**
   * Data-plane routes that read their own body: the host skips its parsers and audit for their paths,
   * mounts their front path before its parsers, request context, intakes, admission and audit, and
   * their POST handlers after the area gates.
   */
  readonly streamedIntakes?: readonly StreamedIntakeDefinition[];
  /** Gates over whole areas of the API (path prefixes), run after admission and audit. */
  readonly areaGates?: readonly AreaGate[];
  /** Cuts the secrets a path carries (a token in the URL) out of a request URL before it is logged. */
  readonly redactUrl?: (url: string) => string;
  readonly jobs?: readonly JobFactory[];
}
