import { z } from 'zod';
import { CLOCK } from '../../../application/shared/clock';
import { AGENT_ENDPOINTS, SIGNING_KEYS, TRUSTED_ISSUERS } from '../../../application/agent-access/ports';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { authorizationServerMetadata, protectedResourceMetadata } from './discovery-documents';
import { authGuide } from './auth-guide';
import { documentRaw } from './openapi-extras';

const tags = ['Agent access'] as const;
const CANONICAL = 'Served on the canonical host only; 404 without a code on any other host, or while agent auth is off.';

/** The discovery documents, the JWKS and the agents' guide. */
export const discoveryRouter = defineRouter(
  { agentEndpoints: AGENT_ENDPOINTS, trustedIssuers: TRUSTED_ISSUERS, signingKeys: SIGNING_KEYS, clock: CLOCK },
  (deps, use) => {
    // Resolved per request, so the routes can be declared (and documented) without the services bound.
    const endpoints = () => use.agentEndpoints;
    const trusted = () => use.trustedIssuers;
    const keys = () => use.signingKeys;
    const clock = () => use.clock;
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
  },
);
