import type { Container } from 'inversify';
import type { ApiRouterDeps } from './api-router';

/** What every router factory receives: the gate pipeline and OpenAPI paths, and the use cases. */
export interface RouterDeps extends ApiRouterDeps {
  container: Container;
  secureCookies: boolean;
}
