import { CLAIM_GRANT, JWT_BEARER_GRANT } from '../../../application/agent-access/issue-access-token';

/** GET /auth.md: what an agent needs to authenticate, in the order it does it. */
export const authGuide = (base: string) => `# Agent access to the Monitoring Service API

Discovery: \`GET ${base}/.well-known/oauth-authorization-server\` (RFC 8414, with an \`agent_auth\` block),
\`GET ${base}/.well-known/oauth-protected-resource\` (RFC 9728), keys at \`${base}/.well-known/jwks.json\`.

## 1. Register
\`POST ${base}/agent/identity\` with JSON \`{"type": "anonymous"}\` (30 requests per minute per client).
The answer holds \`registration_id\` (reg_), \`identity_assertion\` (an EdDSA JWT, valid 24 hours),
\`claim_token\` (clm_, single use), \`claim_url\` and \`token_endpoint\`. Keep the assertion and claim token secret.

\`{"type": "service_auth", "login_hint": "person@example.com"}\` starts a pending registration bound to that
account and mints nothing: give \`claim_url\` to the person, then poll (step 3).

## 2. Get an access token
\`POST ${base}/oauth2/token\`, form-encoded: \`grant_type=${JWT_BEARER_GRANT}&assertion=<identity_assertion>\`.
Answer: \`{access_token: "wsma_...", token_type: "Bearer", expires_in: 3600, scope}\` (60 requests per minute).
Send \`Authorization: Bearer <access_token>\`. Mint a new one from the assertion when it expires.

Scopes: \`tools.public\` (GET /api/tools/* only) before a claim; \`api.read\` after it (adds GET /api/websites*,
GET /api/incidents*, GET /api/health in the approving user's organization or single customer).
\`api.write.monitors\` and \`api.write.incidents\` open fixed write endpoints, only while the platform allows
agent writes. Elsewhere: 403 \`agentTokenReadOnly\` (reads, or any write while writes are off) or
\`agentTokenScopeForbidden\`.

## 3. Be claimed (api.read)
A signed-in person opens \`claim_url\` and approves, or redeems your claim token at
\`POST ${base}/agent/identity/claim\` \`{"claim_token": "clm_..."}\`. Meanwhile poll
\`POST ${base}/oauth2/token\` with \`grant_type=${CLAIM_GRANT}&claim_token=<claim_token>\` (\`device_code\` is accepted
as an alias) no faster than every 5 seconds: \`authorization_pending\`, \`slow_down\` (too fast), \`expired_token\`
(window of 24 hours closed, revoked, or already paid out), then an api.read token. Token answers for an
approved registration also carry a fresh \`identity_assertion\`: use it from then on.

## Identity assertions from your identity provider (ID-JAG)
If the operator trusts your identity provider, present its ID-JAG (\`typ: oauth-id-jag+jwt\`, \`aud\`: ${base},
\`client_id\`, \`sub\`, \`email\`, \`auth_time\` at most 3600 s old, single-use \`jti\`) as the jwt-bearer
\`assertion\`. Untrusted issuers: \`issuer_not_enabled\`; stale sign-in: 401 \`login_required\`. The first time,
401 \`interaction_required\` carries \`data.claim\`: send the person to \`verification_uri_complete\` and poll
with its \`claim_token\` as above. Once approved, each ID-JAG mints directly; refusals are \`invalid_grant\`
with \`error_description\` one of scope_exceeds_grant, binding_changed, no_human, nothing_left.

## Revoke
\`POST ${base}/oauth2/revoke\`, form-encoded \`token=<access_token>\` (or your identity assertion, which revokes
the whole registration). Always 200. Identity providers push security event tokens (RFC 8417,
\`Content-Type: application/secevent+jwt\`) to \`POST ${base}/agent/event/notify\`.

## Errors
Every non-2xx answer, /oauth2/token and /oauth2/revoke included, is the service's envelope
\`{error: true, url, statusCode, statusMessage, message, data: {code, ...}}\`. The OAuth error code
(invalid_request, invalid_grant, unsupported_grant_type, authorization_pending, slow_down, expired_token...)
is \`data.code\`; \`data.error_description\` explains when there is more to say. A 429 carries \`data.retryAfter\`
and \`Retry-After\`. While agent access is switched off, /agent/identity and /oauth2/token answer 503.
`;
