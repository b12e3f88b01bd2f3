import express from 'express';
import { AGENT_ENDPOINTS, type AgentEndpoints } from '../../../application/agent-access/ports';
import { PLATFORM_SETTINGS_REPOSITORY, type PlatformSettingsRepository } from '../../../application/identity/ports';
import type { RouterDeps } from '../shared/use-cases';
import { canonicalHostGuard } from './canonical-host';
import { discoveryRouter } from './discovery.router';
import { agentIdentityRouter } from './agent-identity.router';
import { oauthTokenRouter } from './oauth-token.router';
import { agentClaimRouter } from './agent-claim.router';
import { oauthConnectionsRouter } from './oauth-connections.router';
import { signingKeysRouter } from './signing-keys.router';

/** Agent access: the canonical-host guard first, then one router per resource. */
export function agentAccessRouter(deps: RouterDeps) {
  const endpoints = deps.container.get<AgentEndpoints>(AGENT_ENDPOINTS);
  const settings = deps.container.get<PlatformSettingsRepository>(PLATFORM_SETTINGS_REPOSITORY);
  const router = express.Router();
  router.use(canonicalHostGuard(endpoints.issuer, () => settings.get()));
  for (const build of [discoveryRouter, agentIdentityRouter, oauthTokenRouter, agentClaimRouter, oauthConnectionsRouter, signingKeysRouter]) {
    router.use(build(deps));
  }
  return router;
}
