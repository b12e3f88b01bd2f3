import { AGENT_ENDPOINTS, type AgentEndpoints } from '../../../application/agent-access/ports';
import { PLATFORM_SETTINGS_REPOSITORY, type PlatformSettingsRepository } from '../../../application/identity/ports';
import type { RouterDeps } from '../shared/router-deps';
import type { RequestHandler } from 'express';
import { canonicalHostGuard } from './canonical-host';
import { securityEventContentType } from './agent-identity.router';
import { discoveryRouter } from './discovery.router';
import { agentIdentityRouter } from './agent-identity.router';
import { oauthTokenRouter } from './oauth-token.router';
import { agentClaimRouter } from './agent-claim.router';
import { oauthConnectionsRouter } from './oauth-connections.router';
import { signingKeysRouter } from './signing-keys.router';

/** Agent routes outside /api that need a signed-in caller: authenticated and gated like /api. */
export const AGENT_AUTHENTICATED_PATHS = ['/agent/identity/claim'];

/**
 * Before body parsing and authentication: the canonical host and the agent auth switch, then the
 * security event intake's content type (so a JSON body there is the same bare invalid_request).
 */
export function agentAccessGuard(deps: RouterDeps): RequestHandler[] {
  const endpoints = deps.container.get<AgentEndpoints>(AGENT_ENDPOINTS);
  const settings = deps.container.get<PlatformSettingsRepository>(PLATFORM_SETTINGS_REPOSITORY);
  return [canonicalHostGuard(endpoints.issuer, () => settings.get()), securityEventContentType];
}

/** Agent access, one router per resource. */
export function agentAccessRouter(deps: RouterDeps) {
  for (const build of [
    discoveryRouter,
    agentIdentityRouter,
    oauthTokenRouter,
    agentClaimRouter,
    oauthConnectionsRouter,
    signingKeysRouter,
  ]) {
    build(deps);
  }
  return deps.routes.handle;
}
