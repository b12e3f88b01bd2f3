import { AGENT_SCOPES } from '../../../domain/agent-access/scopes';
import { CLAIM_POLL_INTERVAL_SECONDS } from '../../../domain/agent-access/agent-access-limits';
import { CLAIM_GRANT, JWT_BEARER_GRANT } from '../../../application/agent-access/issue-access-token';

/** RFC 8414 authorization-server metadata, with the agent_auth block. */
export function authorizationServerMetadata(issuer: string, idJagEnabled: boolean) {
  return {
    issuer,
    token_endpoint: `${issuer}/oauth2/token`,
    revocation_endpoint: `${issuer}/oauth2/revoke`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    grant_types_supported: [JWT_BEARER_GRANT, CLAIM_GRANT],
    response_types_supported: [],
    scopes_supported: [...AGENT_SCOPES],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    service_documentation: `${issuer}/auth.md`,
    agent_auth: {
      identity_endpoint: `${issuer}/agent/identity`,
      claim_endpoint: `${issuer}/agent/identity/claim`,
      identity_types_supported: ['anonymous', 'service_auth'],
      claim_grant_type: CLAIM_GRANT,
      claim_polling_interval: CLAIM_POLL_INTERVAL_SECONDS,
      claim_page: `${issuer}/agent/claim`,
      event_notification_endpoint: `${issuer}/agent/event/notify`,
      identity_assertion_signing_alg_values_supported: ['EdDSA'],
      id_jag_supported: idJagEnabled,
      documentation: `${issuer}/auth.md`,
    },
  };
}

/** RFC 9728 protected-resource metadata: the API is the resource, this service its authorization server. */
export function protectedResourceMetadata(issuer: string) {
  return {
    resource: issuer,
    authorization_servers: [issuer],
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    scopes_supported: [...AGENT_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Monitoring Service API',
    resource_documentation: `${issuer}/docs`,
  };
}
