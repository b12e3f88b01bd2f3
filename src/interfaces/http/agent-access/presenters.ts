import type { AgentRegistration } from '../../../domain/agent-access/agent-registration';
import type { ConsentRequest } from '../../../domain/agent-access/consent-request';
import { formatScopes } from '../../../domain/agent-access/scopes';
import type { MintedToken } from '../../../application/agent-access/mint-access-token';
import type { OauthConnection } from '../../../application/agent-access/oauth-connection';

/** RFC 6749 section 5.1, plus the renewed identity assertion where one is issued. */
export const presentToken = (minted: MintedToken) => ({
  access_token: minted.accessToken,
  token_type: 'Bearer' as const,
  expires_in: minted.expiresIn,
  scope: formatScopes(minted.scopes),
  ...(minted.identityAssertion ? { identity_assertion: minted.identityAssertion } : {}),
});

export const presentRegistration = (registration: AgentRegistration, now: Date) => ({
  registration_id: registration.id,
  type: registration.type,
  status: registration.state(now),
  scopes: [...registration.scopes],
  requested_scopes: [...registration.requestedScopes],
  client_id: registration.clientId,
  issuer: registration.issuer,
  login_hint: registration.loginHint,
  organization_id: registration.organizationId,
  customer_id: registration.customerId,
  claimed_at: registration.claimedAt?.toISOString() ?? null,
  claim_expires_at: registration.claimExpiresAt.toISOString(),
});

export const presentConsent = (consent: ConsentRequest) => ({
  consent_code: consent.code,
  status: consent.status,
  client_id: consent.clientId,
  registration_id: consent.registrationId,
  requested_scopes: [...consent.requestedScopes],
  scopes: [...consent.grantedScopes],
  decided_at: consent.decidedAt?.toISOString() ?? null,
});

export const presentConnection = (connection: OauthConnection) => ({
  clientId: connection.clientId,
  type: connection.type,
  issuer: connection.issuer,
  scopes: connection.scopes,
  registrationIds: connection.registrationIds,
  authorizedByUserIds: connection.authorizedByUserIds,
  customerId: connection.customerId,
  connectedAt: connection.connectedAt.toISOString(),
  lastTokenIssuedAt: connection.lastTokenIssuedAt?.toISOString() ?? null,
});
