import type { Needs, Provided } from '../../../application/shared/token';
import type { Request, RequestHandler, Response } from 'express';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { ApiRouterDeps } from './api-router';

/** What every router factory receives: the gate pipeline, OpenAPI paths and route table. */
export interface RouterDeps extends ApiRouterDeps {
  secureCookies: boolean;
  /**
   * Calls `use` with the OpenAPI paths once every router and intake has documented its routes. The
   * host lets the paths go right after (the document is written by then): a router that reads
   * other routers' documentation (the MCP server's tools) keeps what it needs here, not `paths`.
   */
  documented(use: (paths: ZodOpenApiPathsObject) => void): void;
}

/** A resource router as its context declares it: the use cases and ports it needs, and how it registers its routes. */
export interface RouterDefinition {
  readonly needs: Needs;
  build(deps: RouterDeps, use: Provided<Needs>): unknown;
}

/**
 * An API of its own mounted before the host's parsers, admission and audit (for callers that are
 * not users, such as probes): its path prefix, what it needs, its handler, and its OpenAPI part.
 */
export interface IntakeDefinition {
  readonly path: string;
  readonly needs: Needs;
  build(use: Provided<Needs>): RequestHandler;
  document(paths: ZodOpenApiPathsObject): void;
}

/** Declares an intake: `build` sees exactly the `needs` it names, typed. */
export const defineIntake = <N extends Needs>(intake: {
  path: string;
  needs: N;
  build: (use: Provided<N>) => RequestHandler;
  document: (paths: ZodOpenApiPathsObject) => void;
}): IntakeDefinition => intake as IntakeDefinition;

/**
 * What the host lends a streamed intake's front path: its one admission chain as a call (the caller
 * authenticated, the access gates, then the area gates over the request's path), which resolves when
 * the request is admitted and rejects with the refusal; the caller is then `req.auth.caller`.
 */
export interface HostAdmission {
  admit(req: Request, res: Response): Promise<void>;
}

/** A streamed intake's handlers, built once per host (so they can share state, such as a bound). */
export interface StreamedIntakeHandlers {
  /** Runs before the host's parsers, request context, intakes, admission and audit; passes on what it does not answer. */
  readonly front?: RequestHandler;
  /** POST handlers run after admission and the area gates, before the route table: they read the body for the route. */
  readonly posts: readonly { readonly path: string; readonly handler: RequestHandler }[];
}

/**
 * Data-plane routes whose handlers read the request body themselves (streamed against their limits,
 * after their rate is decided): the host's body parsers and its audit skip the paths
 * `streamsItsBody` names. Their routes and OpenAPI part are their routers'.
 */
export interface StreamedIntakeDefinition {
  readonly needs: Needs;
  streamsItsBody(path: string): boolean;
  build(use: Provided<Needs>, host: HostAdmission): StreamedIntakeHandlers;
}

/** Declares a streamed intake: `build` sees exactly the `needs` it names, typed. */
export const defineStreamedIntake = <N extends Needs>(intake: {
  needs: N;
  streamsItsBody: (path: string) => boolean;
  build: (use: Provided<N>, host: HostAdmission) => StreamedIntakeHandlers;
}): StreamedIntakeDefinition => intake as StreamedIntakeDefinition;

/** A gate over areas of the API (path prefixes), run after admission and audit, before the streamed intakes' POST handlers. */
export interface AreaGate {
  readonly paths: readonly string[];
  readonly handler: RequestHandler;
}

/** Declares a router: `build` sees exactly the `needs` it names, typed; the host resolves them. */
export const defineRouter = <N extends Needs>(needs: N, build: (deps: RouterDeps, use: Provided<N>) => unknown): RouterDefinition => ({
  needs,
  build: build as RouterDefinition['build'],
});
