import type { RouterDefinition } from '../shared/router-deps';
import { discoveryRouter } from './discovery.router';
import { agentIdentityRouter } from './agent-identity.router';
import { oauthTokenRouter } from './oauth-token.router';
import { agentClaimRouter } from './agent-claim.router';
import { oauthConnectionsRouter } from './oauth-connections.router';
import { signingKeysRouter } from './signing-keys.router';

/** Agent routes outside /api that need a signed-in caller: authenticated and gated like /api. */
export const AGENT_AUTHENTICATED_PATHS = ['/agent/identity/claim'];

/** Agent access, one router per resource. */
export const AGENT_ACCESS_ROUTERS: readonly RouterDefinition[] = [
  discoveryRouter,
  agentIdentityRouter,
  oauthTokenRouter,
  agentClaimRouter,
  oauthConnectionsRouter,
  signingKeysRouter,
];
