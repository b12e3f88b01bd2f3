import type { Needs, Provided } from '../../../application/shared/token';
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

/** Declares a router: `build` sees exactly the `needs` it names, typed; the host resolves them. */
export const defineRouter = <N extends Needs>(needs: N, build: (deps: RouterDeps, use: Provided<N>) => unknown): RouterDefinition => ({
  needs,
  build: build as RouterDefinition['build'],
});
