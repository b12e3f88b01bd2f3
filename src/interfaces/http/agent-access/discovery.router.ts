import { z } from 'zod';
import type { Clock } from '../../../application/shared/clock';
import { CLOCK } from '../../../application/shared/clock';
import {
  AGENT_ENDPOINTS,
  SIGNING_KEYS,
  TRUSTED_ISSUERS,
  type AgentEndpoints,
  type SigningKeys,
  type TrustedIssuers,
} from '../../../application/agent-access/ports';
import { ApiRouter } from '../shared/api-router';
import type { RouterDeps } from '../shared/router-deps';
import { authorizationServerMetadata, protectedResourceMetadata } from './discovery-documents';
import { authGuide } from './auth-guide';
import { documentRaw } from './openapi-extras';

const tags = ['Agent access'] as const;
const CANONICAL = 'Served on the canonical host only; 404 without a code on any other host, or while agent auth is off.';

/** The discovery documents, the JWKS and the agents' guide. */
export function discoveryRouter(deps: RouterDeps) {
  const { container } = deps;
  // Resolved per request, so the routes can be declared (and documented) without the services bound.
  const endpoints = () => container.get<AgentEndpoints>(AGENT_ENDPOINTS);
  const trusted = () => container.get<TrustedIssuers>(TRUSTED_ISSUERS);
  const keys = () => container.get<SigningKeys>(SIGNING_KEYS);
  const clock = () => container.get<Clock>(CLOCK);
  const cacheable = (res: { set(name: string, value: string): unknown }) => res.set('Cache-Control', 'public, max-age=300');

  const api = new ApiRouter(deps)
    .public({
      operationId: 'getAuthorizationServerMetadata',
      method: 'get',
      path: '/.well-known/oauth-authorization-server',
      tags,
      errors: ['routeNotFound'],
      summary: 'OAuth authorization-server metadata (RFC 8414) with the agent_auth block',
      description: CANONICAL,
      response: z.record(z.string(), z.unknown()),
      handler: async ({ res }) => {
        cacheable(res);
        return authorizationServerMetadata(endpoints().issuer, trusted().enabled);
      },
    })
    .public({
      operationId: 'getProtectedResourceMetadata',
      method: 'get',
      path: '/.well-known/oauth-protected-resource',
      tags,
      errors: ['routeNotFound'],
      summary: 'OAuth protected-resource metadata (RFC 9728)',
      description: CANONICAL,
      response: z.record(z.string(), z.unknown()),
      handler: async ({ res }) => {
        cacheable(res);
        return protectedResourceMetadata(endpoints().issuer);
      },
    })
    .public({
      operationId: 'getJwks',
      method: 'get',
      path: '/.well-known/jwks.json',
      tags,
      errors: ['routeNotFound'],
      summary: 'Public keys of the identity assertions (EdDSA)',
      description: `${CANONICAL} Lists the active key and keys retired within the last 25 hours.`,
      response: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }),
      handler: async ({ res }) => {
        cacheable(res);
        return keys().publicJwks(clock().now());
      },
    });
  deps.routes.routerFor('/auth.md').get('/auth.md', (_req, res) => {
    res.type('text/markdown; charset=utf-8');
    cacheable(res);
    res.send(authGuide(endpoints().issuer));
  });
  documentRaw(deps.paths, '/auth.md', 'get', {
    operationId: 'getAuthGuide',
    summary: 'How an agent authenticates (markdown)',
    description: CANONICAL,
    tags,
    errors: ['routeNotFound'],
    success: { status: 200, contentType: 'text/markdown', description: 'The guide' },
  });
  return api.router;
}
