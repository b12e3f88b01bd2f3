import { Container } from 'inversify';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { AuthenticateCaller } from '../application/identity/authenticate-caller';
import { buildOpenApiDocument } from '../interfaces/http/shared/openapi';
import { RouteTable } from '../interfaces/http/shared/route-table';
import { INTAKES, ROUTERS } from './http';
import { provide } from './provide';

/**
 * The OpenAPI document the host serves at /openapi.json, built from the route declarations alone:
 * no configuration, database or server is needed, since routers reach their use cases only when a
 * request arrives. `npm run lint:openapi` lints this document.
 */
export function describeApi(): object {
  const paths: ZodOpenApiPathsObject = {};
  const neverCalled = {} as AuthenticateCaller;
  const readers: Array<(paths: ZodOpenApiPathsObject) => void> = [];
  const deps = {
    authenticate: neverCalled,
    gates: [],
    paths,
    routes: new RouteTable(),
    secureCookies: false,
    documented: (use: (paths: ZodOpenApiPathsObject) => void) => void readers.push(use),
  };
  for (const router of ROUTERS) router.build(deps, provide(new Container(), router.needs));
  for (const intake of INTAKES) intake.document(paths);
  for (const read of readers) read(paths);
  return buildOpenApiDocument(paths);
}
