import type { ContainerModule } from 'inversify';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Clock } from '../../application/shared/clock';
import type { Needs, Provided } from '../../application/shared/token';
import type { Database } from '../../infrastructure/persistence/database';
import type {
  AreaGate,
  HostAdmission,
  IntakeDefinition,
  RouterDefinition,
  StreamedIntakeDefinition,
} from '../../interfaces/http/shared/router-deps';
import type { ApiRouterDeps as HostAdmissionParts } from '../../interfaces/http/shared/api-router';
import type { JobFactory } from '../../interfaces/jobs/job-definition';
import type { AppConfig } from '../config';
import type { Ctx } from './bindings';

/** What the host is started with, for the bindings that depend on it (configuration, database, clock). */
export interface HostEnvironment {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly database: Database;
  readonly clock?: Clock;
}

/** Which of the host's loops run in this process (each defaults to on; a worker reads the switch that is its). */
export interface HostSwitches {
  /** Run the job system in this process (default true). */
  readonly jobs?: boolean;
  /** Run checks for CHECK_LOCATIONS in this process (default true when it serves any). */
  readonly checkWorker?: boolean;
  /** Deliver notifications (route outbox events, send due deliveries) in this process (default true). */
  readonly notificationWorker?: boolean;
}

/** What a context's worker is started with: the host's environment, its switches, and the bindings. */
export interface WorkerHost extends HostEnvironment {
  readonly databaseUrl: string;
  readonly switches: HostSwitches;
  readonly get: Ctx['get'];
}

/** A started worker, stopped by the host (in the reverse order of starting). */
export interface RunningWorker {
  stop(): Promise<void>;
}

/**
 * A loop or a start-up step a context runs in the host's process (the check worker, the notification
 * worker, the platform admin ensured). `start` answers how to stop it, or nothing when there is
 * nothing to stop (a step, or a worker switched off here).
 */
export interface ContextWorker {
  readonly name: string;
  start(host: WorkerHost): Promise<RunningWorker | undefined> | RunningWorker | undefined;
}

/** A resource a context holds open (a pool, a listening connection), closed at stop, after the workers and the server. */
export interface ContextCloser {
  readonly name: string;
  close(get: Ctx['get'], logger: Logger): Promise<void> | void;
}

/** Where in the host's chain a front handler runs. */
export type FrontStage =
  /** Before the path check: it sees every request (metering). */
  | 'first'
  /** After the URL checks, before the streamed intakes' front paths and the intakes (host routing, public views). */
  | 'hosts'
  /** After the intakes, before the parsers (guards of a context's own paths and bodies). */
  | 'guards'
  /** After the parsers, cookies and the request context, before admission. */
  | 'parsed';

/** What the host lends a front handler: its admission chain and its configuration. */
export interface FrontHost extends HostAdmission {
  readonly config: AppConfig;
  /** The bindings, for what is bound only under some configurations (metrics); needs are declared otherwise. */
  readonly get: Ctx['get'];
}

/** A context's handlers in the host's chain, stage by stage (each passes on what it does not answer). */
export type FrontHandlers = { readonly [stage in FrontStage]?: readonly RequestHandler[] };

/**
 * Handlers a context puts in the host's chain, built once per host from what they need (so its stages
 * can share state). `build` may load its handlers when called (`await import(...)`), so a host
 * without HTTP (the library) never loads Express through a context's module.
 */
export interface FrontDefinition {
  readonly needs: Needs;
  build(use: Provided<Needs>, host: FrontHost): FrontHandlers | Promise<FrontHandlers>;
}

/** Declares a context's front handlers: `build` sees exactly the `needs` it names, typed. */
export const defineFront = <N extends Needs>(front: {
  needs: N;
  build: (use: Provided<N>, host: FrontHost) => FrontHandlers | Promise<FrontHandlers>;
}): FrontDefinition => front as FrontDefinition;

/** Paths outside /api whose callers the host admits (authentication, and the access gates unless `gates` is false) and audits. */
export interface AdmittedPaths {
  readonly paths: readonly string[];
  readonly gates: boolean;
}

/**
 * Everything a bounded context brings to the host, declared in its module file: its bindings
 * (adapters to ports, use cases to themselves), its routers (each documents its
 * routes in OpenAPI), its intakes and front handlers, what the host's chain must know of its routes
 * (streamed bodies, area gates, secrets in URLs, quiet paths), its jobs, its workers and what it
 * closes at stop. The composition root only lists the contexts (`src/main/contexts.ts`).
 */
export interface ContextModule {
  readonly name: string;
  readonly bindings: ContainerModule | ((host: HostEnvironment) => ContainerModule);
  readonly routers?: readonly RouterDefinition[];
  /** APIs mounted before the host's parsers, admission and audit, for callers that are not users (probes). */
  readonly intakes?: readonly IntakeDefinition[];
  /**
   * Data-plane routes that read their own body: the host skips its parsers and audit for their paths,
   * mounts their front path before its parsers, request context, intakes, admission and audit (the
   * front path runs the host's admission chain itself), and their POST handlers after the area gates.
   */
  readonly streamedIntakes?: readonly StreamedIntakeDefinition[];
  /** Handlers the host mounts at a stage of its chain, context by context in list order. */
  readonly front?: readonly FrontDefinition[];
  /** Paths outside /api the host admits and audits as it does /api (agent claims, the MCP endpoint). */
  readonly admits?: readonly AdmittedPaths[];
  /** Gates over whole areas of the API (path prefixes), run after admission and audit. */
  readonly areaGates?: readonly AreaGate[];
  /** Cuts the secrets a path carries (a token in the URL) out of a request URL before it is logged. */
  readonly redactUrl?: (url: string) => string;
  /** Paths whose requests the host's request log keeps quiet (health probes). */
  readonly quietPaths?: readonly string[];
  readonly jobs?: readonly JobFactory[];
  /** Started by the host in one loop, in list order, after the closers are registered; stopped in reverse. */
  readonly workers?: readonly ContextWorker[];
  /** Closed by the host at stop, after every worker and the HTTP server stopped (in the reverse of list order). */
  readonly closers?: readonly ContextCloser[];
  /** The host's admission (authentication and access gates): declared by the one context that authenticates callers. */
  readonly admission?: AdmissionDefinition;
}

/** How the host authenticates callers and which access gates it runs for them (one context declares it). */
export interface AdmissionDefinition {
  readonly needs: Needs;
  build(use: Provided<Needs>, config: AppConfig): Pick<HostAdmissionParts, 'authenticate' | 'gates'>;
}

/** Declares the host's admission: `build` sees exactly the `needs` it names, typed. */
export const defineAdmission = <N extends Needs>(admission: {
  needs: N;
  build: (use: Provided<N>, config: AppConfig) => Pick<HostAdmissionParts, 'authenticate' | 'gates'>;
}): AdmissionDefinition => admission as AdmissionDefinition;
