import type { Needs, Provided } from '../../../application/shared/token';
import type { RequestHandler } from 'express';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { ApiRouterDeps } from './api-router';

/** What every router factory receives: the gate pipeline, OpenAPI paths and route table. */
export interface RouterDeps extends ApiRouterDeps {
  secureCookies: boolean;
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

/** Declares a router: `build` sees exactly the `needs` it names, typed; the host resolves them. */
export const defineRouter = <N extends Needs>(needs: N, build: (deps: RouterDeps, use: Provided<N>) => unknown): RouterDefinition => ({
  needs,
  build: build as RouterDefinition['build'],
});
