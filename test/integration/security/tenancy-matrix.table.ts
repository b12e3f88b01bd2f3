import { CALLERS, type CallerClass } from '../../support/tenancy-matrix-world';
import type { Outcome } from '../../support/tenancy-matrix-runner';
import { PER_KIND_TYPES } from '../../../src/domain/monitoring/kinds';

/**
 * The tenancy matrix: for every operation of /openapi.json, what each caller class gets when the
 * path names organization A's records (tenancy-matrix.test.ts runs it). Derived from the spec
 * (Authentication: API tokens rules 1-9, the customer-scoped denylist, agent reach; Errors >
 * Incident Management: imAccessDenied for callers without credentials) and the gates in
 * src/interfaces/http/shared/gates. A new route fails the build until it has a row.
 *
 * One letter per caller, in groups:
 *   anonymous | admin editor readonly responder orgToken | customerToken customerUser |
 *   agentPublic (tools.public) agentRead (api.read) agentWrite (api.read + api.write.*, switch on) |
 *   stranger (organization B's admin) supporter (platform supporter, admin of a third organization)
 * A allowed (2xx, or a 4xx about the request's content: validation, conflict, rate limit)
 * D denied (403)   H hidden (404, or a not-found code)   U unauthenticated (401)   - not applicable
 */
export const COLUMNS: CallerClass[][] = [
  ['anonymous'],
  ['admin', 'editor', 'readonly', 'responder', 'orgToken'],
  ['customerToken', 'customerUser'],
  ['agentPublic', 'agentRead', 'agentWrite'],
  ['stranger', 'supporter'],
];

const LETTERS: Record<string, Outcome> = { A: 'allowed', D: 'denied', H: 'hidden', U: 'unauthenticated', '-': 'n/a' };

/** Operations that change the callers themselves; the matrix runs them last, one caller at a time, in this order. */
export const FINAL_OPERATIONS = [
  'POST /api/im/schedules/{id}/calendar-feed',
  'POST /api/im/on-call/calendar-feed',
  'POST /api/account/deletion-request',
  'DELETE /api/account/deletion-request',
  'DELETE /api/oauth/connections/{clientId}',
  'DELETE /api/oauth/connections',
  'POST /api/auth/sign-out',
];

// The common rows, by rule.
/** Public: no credentials needed, and any credential passes (outside /api no gate runs). */
const ANYONE = 'A AAAAA AA AAA AA';
/** Public under /api: agent tokens are refused by the agent gate (not on their allowlist). */
const PUBLIC_API = 'A AAAAA AA DDD AA';
/** Tools: every caller with a credential, agents of any scope included (tools.public). */
const TOOLS = 'U AAAAA AA AAA AA';
/**
 * The probe API: a probe key, never a user's credential (every caller here is refused as unauthenticated).
 * Its rows for probe keys of another organization or location are probe-api-tenancy.test.ts.
 */
const PROBES_ONLY = 'U UUUUU UU UUU UU';
/** A list of the caller's own tenant (customer-bound callers see their customer's part; B sees B's). */
const READ = 'U AAAAA AA DDD AA';
/** One of A's records, owned by the customer the customer-bound callers are bound to. */
const READ_ONE = 'U AAAAA AA DDD HH';
/** Reads api.read reaches (GET /api/websites*, /api/incidents*, /api/health). */
const AGENT_READ = 'U AAAAA AA DAA AA';
const AGENT_READ_ONE = 'U AAAAA AA DAA HH';
/** A write to one of A's customer-owned records: writers (not read-only users, not responders), customer-bound included. */
const WRITE_ONE = 'U AADDA AA DDD HH';
/** The same, on a path one of the agent write scopes opens (api.write.monitors or api.write.incidents). */
const AGENT_WRITE_ONE = 'U AADDA AA DDA HH';
/** Creating a monitor: the customer does not allow self-service (selfServiceNotAllowed); B's admin names A's customer (400 invalidCustomer). */
const MONITOR_CREATE = 'U AADDA DD DDA AA';
/** A managed monitor: customer-bound callers must use change requests (managed_by_organization). */
const MANAGED_MONITOR_WRITE = 'U AADDA DD DDA HH';
/** Organization-wide areas closed to customer-bound callers (customerScopedTokenForbidden). */
const ORG_READ = 'U AAAAA DD DDD AA';
const ORG_READ_ONE = 'U AAAAA DD DDD HH';
const ORG_WRITE = 'U AADDA DD DDD AA';
const ORG_WRITE_ONE = 'U AADDA DD DDD HH';
/** Organization administrators only (roleForbidden for editors, read-only users and responders). */
const ORG_ADMIN = 'U ADDDA DD DDD AA';
const ORG_ADMIN_ONE = 'U ADDDA DD DDD HH';
/** A caller's own records (API tokens, deletion requests): other non-admins do not see them. */
const OWN_ONE = 'U AHHHA DD DDD HH';
/** Platform administrators only: nobody here (platformAdminRequired). */
const PLATFORM_ADMIN = 'U DDDDD DD DDD DD';
/** Incident management: admins, editors and responders of an organization with IM on (imAccessDenied, also without credentials). */
const IM_USE = 'D AADAA DD DDD AD';
const IM_READ_ONE = 'D AADAA DD DDD HD';
/** IM actions reserved to team members or organization admins (the editor is in no team: imTeamMembershipRequired). */
const IM_TEAM_MEMBER_ONE = 'D ADDAA DD DDD HD';
/** Team and schedule changes: organization admins or the team's admins (imTeamWriteDenied). */
const IM_TEAM_ADMIN_ONE = 'D ADDDA DD DDD HD';

/**
 * Every per-kind monitor type's routes, the same rules for each: a kind added to the registry gets
 * its rows (and so its hostile cases) from its descriptor, without an edit here.
 */
const PER_KIND_ROWS: Record<string, string> = Object.fromEntries(
  PER_KIND_TYPES.flatMap((type) => [
    [`GET /api/monitors/${type}`, READ],
    [`POST /api/monitors/${type}`, MONITOR_CREATE],
    [`GET /api/monitors/${type}/{id}`, READ_ONE],
    [`PATCH /api/monitors/${type}/{id}`, MANAGED_MONITOR_WRITE],
    [`DELETE /api/monitors/${type}/{id}`, MANAGED_MONITOR_WRITE],
    [`POST /api/monitors/${type}/{id}/change-requests`, AGENT_WRITE_ONE],
    [`GET /api/monitors/${type}/{id}/check-history`, READ_ONE],
    [`GET /api/monitors/${type}/{id}/uptime-stats`, READ_ONE],
    [`GET /api/monitors/${type}/{id}/response-times`, READ_ONE],
    [`POST /api/monitors/${type}/{id}/trigger-check`, 'U AAAAA AA DDA HH'],
  ]),
);

export const MATRIX: Record<string, string> = {
  // No role gate: a check run changes no configuration (open question for the spec: read-only users may trigger).
  'POST /api/websites/{id}/trigger-check': 'U AAAAA AA DDA HH',
  'POST /api/auth/sign-up/email': PUBLIC_API,
  'POST /api/auth/sign-in/email': PUBLIC_API,
  // Sessions without a pending challenge: 400 twoFactorNotEnabled; tokens and the anonymous have no challenge (401).
  'POST /api/auth/two-factor/verify-totp': 'U AAAAU UA DDD AA',
  'POST /api/auth/sign-out': READ,
  'GET /api/auth/get-session': READ,
  // The sample's password is wrong: 401 invalidCredentials for sessions; token callers 403 nonUserSessionForbidden.
  'POST /api/auth/two-factor/enable': 'U UUUUD DU DDD UU',
  // As enable.
  'POST /api/auth/two-factor/disable': 'U UUUUD DU DDD UU',
  'GET /api/invitations': ORG_ADMIN,
  'POST /api/invitations': ORG_ADMIN,
  'DELETE /api/invitations/{id}': ORG_ADMIN_ONE,
  'GET /api/invitations/accept/{token}': PUBLIC_API,
  // Without a body every caller is refused by the schema (400, past the gates): the acceptance itself is invitations.test.ts.
  'POST /api/invitations/accept/{token}': PUBLIC_API,
  'GET /api/users': ORG_READ,
  'POST /api/users': ORG_ADMIN,
  'GET /api/users/{id}': ORG_READ_ONE,
  'PATCH /api/users/{id}': ORG_ADMIN_ONE,
  'DELETE /api/users/{id}': ORG_ADMIN_ONE,
  // Sessions only (rule 7): an organization token gets nonUserSessionForbidden.
  'POST /api/users/{id}/mfa/reset': 'U ADDDD DD DDD HH',
  'GET /api/organization': READ,
  'PATCH /api/organization': ORG_ADMIN,
  'GET /api/organizations': ORG_READ,
  // Platform supporters read every organization.
  'GET /api/organizations/{id}': 'U AAAAA DD DDD HA',
  // ...and change only their own (roleForbidden here).
  'PATCH /api/organizations/{id}/billing': 'U ADDDA DD DDD HD',
  'POST /api/organizations/{id}/vat-id/validate': 'U ADDDA DD DDD HD',
  'GET /api/organization/tokens': ORG_READ,
  // Tokens are minted by signed-in users only (apiTokenCannotMintTokens), any role.
  'POST /api/organization/tokens': 'U AAAAD DD DDD AA',
  'PATCH /api/organization/tokens/{id}': OWN_ONE,
  'DELETE /api/organization/tokens/{id}': OWN_ONE,
  'GET /api/customer/tokens': READ,
  // A customer-bound user mints tokens for their customer; the body names A's customer (B: customerNotFound).
  'POST /api/customer/tokens': 'U AAAAD DA DDD HH',
  // Visible to the organization's admins and to their maker; the customer token may revoke itself.
  'DELETE /api/customer/tokens/{id}': 'U AHHHA AH DDD HH',
  // One's own account: a customer token has no user behind it (accountDeletionUserNotFound).
  'GET /api/account/deletion-request': 'U AAAAA HA DDD AA',
  'POST /api/account/deletion-request': 'U AAAAA HA DDD AA',
  // Runs after POST: admins were refused as sole owners (nothing to withdraw: accountDeletionNotRequested).
  'DELETE /api/account/deletion-request': 'U HAAAH HA DDD HA',
  'GET /api/users/{id}/deletion-request': OWN_ONE,
  'POST /api/users/{id}/deletion-request': OWN_ONE,
  'DELETE /api/users/{id}/deletion-request': OWN_ONE,
  'PATCH /api/platform-admin/organizations/{id}': PLATFORM_ADMIN,
  'GET /api/platform-admin/settings': PLATFORM_ADMIN,
  'PATCH /api/platform-admin/settings': PLATFORM_ADMIN,
  'GET /api/health': AGENT_READ,
  'GET /livez': ANYONE,
  'GET /readyz': ANYONE,
  'GET /.well-known/oauth-authorization-server': ANYONE,
  'GET /.well-known/oauth-protected-resource': ANYONE,
  'GET /.well-known/jwks.json': ANYONE,
  'GET /auth.md': ANYONE,
  'POST /agent/identity': ANYONE,
  'POST /agent/identity/claim': READ,
  'POST /agent/event/notify': ANYONE,
  'POST /oauth2/token': ANYONE,
  'POST /oauth2/revoke': ANYONE,
  // Sessions only; the sample's user code is unknown (404 invalid_claim_token).
  'GET /api/agent-claim/context': 'U HHHHD DH DDD HH',
  'POST /api/agent-claim/confirm': 'U AAAAD DA DDD AA',
  'GET /agent/claim': ANYONE,
  'GET /api/oauth/connections': READ,
  'DELETE /api/oauth/connections': READ,
  // The client id names no connection (unknownOauthConnection).
  'DELETE /api/oauth/connections/{clientId}': 'U HHHHH HH DDD HH',
  // Session-only consent: token callers answer 401 unauthorized, the first of the spec's consent checks.
  'POST /api/oauth/consent': 'U AAAAU UA DDD AA',
  'POST /api/platform-admin/agent-signing-keys/rotate': PLATFORM_ADMIN,
  // Any bearer credential connects (the sample body {} is no MCP message: 400); each tool call is then gated as its API route.
  'POST /mcp': TOOLS,
  'GET /api/tools/dns-lookup': TOOLS,
  'GET /api/tools/ssl-certificate': TOOLS,
  'GET /api/tools/port-check': TOOLS,
  'GET /api/tools/dnsbl-lookup': TOOLS,
  'GET /api/tools/domain-expiry': TOOLS,
  'GET /api/events': READ,
  'GET /api/incidents': AGENT_READ,
  'POST /api/incidents': AGENT_WRITE_ONE,
  'GET /api/incidents/{id}': AGENT_READ_ONE,
  'DELETE /api/incidents/{id}': AGENT_WRITE_ONE,
  // Responders acknowledge; resolving needs a writer.
  'POST /api/incidents/{id}/acknowledge': 'U AADAA AA DDA HH',
  'POST /api/incidents/{id}/resolve': AGENT_WRITE_ONE,
  // Those who may acknowledge may post an update.
  'POST /api/incidents/{id}/updates': 'U AADAA AA DDA HH',
  'GET /api/websites/{id}/check-history': AGENT_READ_ONE,
  'GET /api/websites/{id}/uptime-stats': AGENT_READ_ONE,
  'GET /api/websites/{id}/response-times': AGENT_READ_ONE,
  // Lists and bars of the caller's own monitors: a foreign id is listed in notFound, never read.
  'GET /api/monitor-overview': READ,
  'POST /api/monitor-overview/uptime-bars': READ,
  // No screenshot exists (screenshotNotFound); api.read reaches /api/websites/*.
  'GET /api/websites/{id}/screenshots/{screenshotId}': 'U HHHHH HH DHH HH',
  'GET /api/maintenance-windows': READ_ONE,
  'POST /api/maintenance-windows': AGENT_WRITE_ONE,
  'POST /api/maintenance-windows/preview-occurrences': READ,
  'POST /api/maintenance-windows/check/batch': READ,
  'GET /api/maintenance-windows/check/{websiteId}': READ_ONE,
  'GET /api/maintenance-windows/{id}': READ_ONE,
  'PATCH /api/maintenance-windows/{id}': AGENT_WRITE_ONE,
  'DELETE /api/maintenance-windows/{id}': AGENT_WRITE_ONE,
  'GET /api/service-levels': READ,
  // The body names A's website: B's callers get websiteNotFound.
  'POST /api/service-levels': WRITE_ONE,
  'GET /api/service-levels/{id}': READ_ONE,
  'GET /api/service-levels/{id}/status': READ_ONE,
  'PATCH /api/service-levels/{id}': WRITE_ONE,
  'DELETE /api/service-levels/{id}': WRITE_ONE,
  'GET /api/customers': READ,
  'POST /api/customers': ORG_WRITE,
  'POST /api/customers/bulk': ORG_WRITE,
  'GET /api/customers/sms-usage': READ,
  'GET /api/customers/{id}': READ_ONE,
  'PATCH /api/customers/{id}': WRITE_ONE,
  'DELETE /api/customers/{id}': ORG_WRITE_ONE,
  'GET /api/package-configs': READ,
  'POST /api/package-configs': ORG_ADMIN,
  'GET /api/package-configs/{id}': READ_ONE,
  'PATCH /api/package-configs/{id}': ORG_ADMIN_ONE,
  'DELETE /api/package-configs/{id}': ORG_ADMIN_ONE,
  'GET /api/custom-fields': ORG_READ,
  'POST /api/custom-fields': ORG_ADMIN,
  'PATCH /api/custom-fields/{id}': ORG_ADMIN_ONE,
  'DELETE /api/custom-fields/{id}': ORG_ADMIN_ONE,
  'POST /api/customers/{id}/domains': WRITE_ONE,
  'GET /api/customer-domains': READ,
  'GET /api/customer-domains/{id}': READ_ONE,
  'PATCH /api/customer-domains/{id}': WRITE_ONE,
  'DELETE /api/customer-domains/{id}': WRITE_ONE,
  'POST /api/customers/{id}/ips': WRITE_ONE,
  'GET /api/customer-ips': READ,
  'GET /api/customer-ips/{id}': READ_ONE,
  'PATCH /api/customer-ips/{id}': WRITE_ONE,
  'DELETE /api/customer-ips/{id}': WRITE_ONE,
  'GET /api/websites': AGENT_READ,
  'POST /api/websites': MONITOR_CREATE,
  'GET /api/websites/{id}': AGENT_READ_ONE,
  'PATCH /api/websites/{id}': MANAGED_MONITOR_WRITE,
  'DELETE /api/websites/{id}': MANAGED_MONITOR_WRITE,
  'PATCH /api/websites/{websiteId}/check-config': MANAGED_MONITOR_WRITE,
  'POST /api/websites/{id}/change-requests': AGENT_WRITE_ONE,
  ...PER_KIND_ROWS,
  'GET /api/tags': READ,
  // The body names A's customer: B answers 400 invalidCustomer (not a 2xx).
  'POST /api/tags': 'U AADDA AA DDA AA',
  'PATCH /api/tags/{id}': AGENT_WRITE_ONE,
  'DELETE /api/tags/{id}': AGENT_WRITE_ONE,
  'POST /api/monitor-tags': AGENT_WRITE_ONE,
  'DELETE /api/monitor-tags': AGENT_WRITE_ONE,
  'GET /api/change-requests': READ,
  'PATCH /api/change-requests/{id}': ORG_WRITE_ONE,
  'GET /api/heartbeats/{token}': PUBLIC_API,
  'POST /api/heartbeats/{token}': PUBLIC_API,
  'GET /api/notification-channels': READ,
  'POST /api/notification-channels': WRITE_ONE,
  'GET /api/notification-channels/{id}': READ_ONE,
  'PATCH /api/notification-channels/{id}': WRITE_ONE,
  'DELETE /api/notification-channels/{id}': WRITE_ONE,
  'POST /api/notification-channels/{id}/test': WRITE_ONE,
  // No SMTP configured in the world (smtpNotConfigured); organization admins only.
  'GET /api/organization/smtp': 'U HDDDH DD DDD HH',
  'PATCH /api/organization/smtp': ORG_ADMIN,
  'DELETE /api/organization/smtp': 'U HDDDH DD DDD HH',
  // Single sign-on: read before any PUT (not configured: 404); set (a second organization naming the same
  // domain is a 409, allowed); removal is idempotent.
  'GET /api/organization/sso': 'U HDDDH DD DDD HH',
  'PUT /api/organization/sso': ORG_ADMIN,
  'DELETE /api/organization/sso': ORG_ADMIN,
  'GET /api/auth/sso/start': PUBLIC_API,
  'GET /api/auth/sso/callback': PUBLIC_API,
  'POST /api/auth/sso/backchannel-logout/{organizationId}': PUBLIC_API,
  'GET /api/notification-deliveries': READ,
  // Admins; the customer token (minted by an admin) reads its customer's entries, the bound editor may not.
  'GET /api/audit-log': 'U ADDDA AD DDD AA',
  'POST /api/notifications/send-alert': ORG_WRITE_ONE,
  'GET /api/im/teams': IM_USE,
  // Teams are created by organization admins (imTeamWriteDenied).
  'POST /api/im/teams': 'D ADDDA DD DDD AD',
  'GET /api/im/teams/{id}': IM_READ_ONE,
  'PATCH /api/im/teams/{id}': IM_TEAM_ADMIN_ONE,
  'DELETE /api/im/teams/{id}': IM_TEAM_ADMIN_ONE,
  'PUT /api/im/teams/{id}/members/{userId}': IM_TEAM_ADMIN_ONE,
  'DELETE /api/im/teams/{id}/members/{userId}': IM_TEAM_ADMIN_ONE,
  'GET /api/im/schedules': IM_USE,
  'POST /api/im/schedules': IM_TEAM_ADMIN_ONE,
  'GET /api/im/schedules/{id}': IM_READ_ONE,
  'PATCH /api/im/schedules/{id}': IM_TEAM_ADMIN_ONE,
  'DELETE /api/im/schedules/{id}': IM_TEAM_ADMIN_ONE,
  'POST /api/im/schedules/{id}/overrides': IM_TEAM_ADMIN_ONE,
  'DELETE /api/im/schedules/{id}/overrides/{overrideId}': IM_TEAM_ADMIN_ONE,
  'GET /api/im/schedules/{id}/on-call': IM_READ_ONE,
  'POST /api/im/schedules/{id}/calendar-feed': IM_READ_ONE,
  'GET /api/im/on-call': IM_USE,
  'POST /api/im/on-call/calendar-feed': IM_USE,
  // The feed token is the credential; customer-bound and agent credentials are refused by the gates first.
  'GET /api/im/calendar/{token}': 'A AAAAA DD DDD AA',
  'GET /api/escalation-config': IM_USE,
  // Escalation policies: admins and editors (roleForbidden for responders); the body names A's team.
  'POST /api/escalation-config': 'D AADDA DD DDD HD',
  'GET /api/escalation-config/{id}': IM_READ_ONE,
  'PATCH /api/escalation-config/{id}': 'D AADDA DD DDD HD',
  'DELETE /api/escalation-config/{id}': 'D AADDA DD DDD HD',
  'GET /api/custom-domains': READ,
  'POST /api/custom-domains': ORG_ADMIN,
  // Custom domains belong to the organization: hidden from customer-bound callers.
  'GET /api/custom-domains/{id}': 'U AAAAA HH DDD HH',
  'DELETE /api/custom-domains/{id}': 'U ADDDA HH DDD HH',
  'POST /api/custom-domains/{id}/verify': 'U ADDDA HH DDD HH',
  'POST /api/custom-domains/{id}/activate': 'U ADDDA HH DDD HH',
  // The TLS on-demand ask for a host nobody claimed.
  'GET /internal/tls-ask': 'H HHHHH HH HHH HH',
  'GET /api/status-pages': READ,
  'POST /api/status-pages': WRITE_ONE,
  'GET /api/status-pages/{id}': READ_ONE,
  'PATCH /api/status-pages/{id}': WRITE_ONE,
  'DELETE /api/status-pages/{id}': WRITE_ONE,
  'GET /api/status-pages/{id}/incidents': READ_ONE,
  'POST /api/status-pages/{id}/incidents': WRITE_ONE,
  'POST /api/status-pages/{id}/incidents/{incidentId}/updates': WRITE_ONE,
  'GET /api/status-pages/{id}/subscribers': READ_ONE,
  'POST /api/status-pages/{id}/subscribers': WRITE_ONE,
  'DELETE /api/status-pages/{id}/subscribers/{subscriberId}': WRITE_ONE,
  'GET /api/public/status-pages/{slug}': PUBLIC_API,
  'GET /api/branding': PUBLIC_API,
  'GET /api/branding/manifest.webmanifest': PUBLIC_API,
  // Web Push: a person's own devices (tokens act for their person; agents never), and the grant-bound
  // acknowledgements, public by design: the grant in the body is the credential, checked after the body.
  'GET /api/me/push-subscriptions': 'U AAAAA AA DDD AA',
  'POST /api/me/push-subscriptions': 'U AAAAA AA DDD AA',
  'DELETE /api/me/push-subscriptions/{id}': 'U HHHHH HH DDD HH',
  'POST /api/push/incidents/{id}/acknowledge': 'A AAAAA AA DDD AA',
  'POST /api/push/im-incidents/{id}/acknowledge': 'A AAAAA AA DDD AA',
  'GET /status/{slug}': ANYONE,
  'GET /status/{slug}/index.json': ANYONE,
  'GET /status/{slug}/feed.atom': ANYONE,
  'GET /status/{slug}/badge.svg': ANYONE,
  'POST /status/{slug}/login': ANYONE,
  'POST /status/{slug}/subscribe': ANYONE,
  // The sample's token is unknown (subscriberNotFound).
  'GET /status/{slug}/confirm': 'H HHHHH HH HHH HH',
  'GET /status/{slug}/unsubscribe': ANYONE,
  'POST /status/{slug}/unsubscribe': 'H HHHHH HH HHH HH',
  'POST /api/organization/data-export': ORG_ADMIN,
  'GET /api/organization/data-export': ORG_ADMIN,
  // A signed-in caller only; the sample export is not ready for its own admins (409, a content answer), the
  // link's token is wrong for everyone else who gets past the gates (404).
  'GET /api/organization/data-export/download': 'U AHHHA DD DDD HH',
  'GET /api/organization/data-export/{id}': ORG_ADMIN_ONE,
  'GET /api/im/incidents': IM_USE,
  'POST /api/im/incidents': IM_USE,
  'POST /api/im/incidents/bulk': IM_READ_ONE,
  'GET /api/im/incidents/{id}': IM_READ_ONE,
  'POST /api/im/incidents/{id}/acknowledge': IM_READ_ONE,
  'POST /api/im/incidents/{id}/status': IM_TEAM_MEMBER_ONE,
  'POST /api/im/incidents/{id}/resolve': IM_TEAM_MEMBER_ONE,
  'POST /api/im/incidents/{id}/snooze': IM_TEAM_MEMBER_ONE,
  'POST /api/im/incidents/{id}/escalate': IM_TEAM_MEMBER_ONE,
  'POST /api/im/incidents/{id}/responders': IM_TEAM_MEMBER_ONE,
  'POST /api/im/incidents/{id}/merge': IM_TEAM_MEMBER_ONE,
  // No outbound delivery exists (imOutboundNotFound).
  'POST /api/im/outbound/{id}/retry': 'D HHDHH DD DDD HD',
  'POST /api/im/events': IM_USE,
  'GET /api/im/sources': IM_USE,
  'POST /api/im/sources': IM_USE,
  'GET /api/im/sources/{id}': IM_READ_ONE,
  'PATCH /api/im/sources/{id}': IM_READ_ONE,
  'DELETE /api/im/sources/{id}': IM_READ_ONE,
  'POST /api/im/sources/{id}/test-alert': IM_READ_ONE,
  // The source token is the credential (the sample's body fails the schema); customer-bound and agent credentials are refused first.
  'POST /api/im/ingest/{token}': 'A AAAAA DD DDD AA',
  'GET /api/organization/reports': ORG_READ,
  'POST /api/organization/reports': ORG_WRITE,
  'GET /api/organization/reports/{id}': ORG_READ_ONE,
  'PATCH /api/organization/reports/{id}': ORG_WRITE_ONE,
  'DELETE /api/organization/reports/{id}': ORG_WRITE_ONE,
  'POST /api/organization/reports/{id}/run': ORG_WRITE_ONE,
  'PUT /api/organization/report-logo': ORG_WRITE,
  'GET /api/organization/report-runs': ORG_READ,
  'GET /api/organization/report-runs/{id}': ORG_READ_ONE,
  'GET /api/organization/report-runs/{id}/pdf': ORG_READ_ONE,

  // Routing monitor incidents into IM: read by IM users, changed by admins and editors (roleForbidden for responders).
  'GET /api/im/routing/customers/{customerId}': IM_READ_ONE,
  'PUT /api/im/routing/customers/{customerId}': 'D AADDA DD DDD HD',
  'GET /api/im/routing/monitors/{monitorId}': IM_READ_ONE,
  'PUT /api/im/routing/monitors/{monitorId}': 'D AADDA DD DDD HD',
  // Contact methods: each IM user's own list (B's admin sees B's); another user's method needs an organization admin.
  'GET /api/im/contact-methods': IM_USE,
  'POST /api/im/contact-methods': IM_USE,
  'PATCH /api/im/contact-methods/{id}': 'D ADDDA DD DDD HD',
  'DELETE /api/im/contact-methods/{id}': 'D ADDDA DD DDD HD',

  // Billing: the caller's own organization (no id in the path), its administrators only.
  'GET /api/organization/quota-tier': ORG_ADMIN,
  'PATCH /api/organization/quota-tier': ORG_ADMIN,
  'POST /api/organization/quota-tier': ORG_ADMIN,
  'GET /api/billing': ORG_ADMIN,
  'POST /api/billing/mandate': ORG_ADMIN,
  // The world's mandate id is unknown: the organization's admins get mandateNotFound, the rest are refused first.
  'GET /api/billing/mandate/return': 'U HDDDH DD DDD HH',
  'POST /api/billing/mandate/reconcile': ORG_ADMIN,
  // An unknown code: invalidDiscountCode (422) for those who pass.
  'POST /api/billing/discount': ORG_ADMIN,
  'GET /api/billing/charges': ORG_ADMIN,
  'GET /api/custom-pricing': ORG_ADMIN,
  'PUT /api/custom-pricing/{customerId}': ORG_ADMIN_ONE,
  'DELETE /api/custom-pricing/{customerId}': ORG_ADMIN_ONE,

  // Platform staff views: signed-in platform admins and supporters; the actions are platform admins' only.
  'GET /api/admin/organizations': 'U DDDDD DD DDD DA',
  'GET /api/admin/organizations/{id}': 'U DDDDD DD DDD DA',
  'GET /api/admin/users': 'U DDDDD DD DDD DA',
  'GET /api/admin/users/{id}': 'U DDDDD DD DDD DA',
  'POST /api/admin/users/{id}/deactivate': PLATFORM_ADMIN,
  'POST /api/admin/users/{id}/reactivate': PLATFORM_ADMIN,
  'GET /api/admin/usage': 'U DDDDD DD DDD DA',
  // Locations: every role of the organization reads (agents are not on the api.read list); its admins change its private
  // ones. The path names A's private location: another organization's callers get locationNotFound.
  'GET /api/locations': READ,
  'POST /api/locations': ORG_ADMIN,
  'GET /api/locations/{code}': 'U AAAAA AA DDD HH',
  'PATCH /api/locations/{code}': ORG_ADMIN_ONE,
  'DELETE /api/locations/{code}': ORG_ADMIN_ONE,
  'GET /api/locations/{code}/keys': 'U AAAAA AA DDD HH',
  'POST /api/locations/{code}/keys': ORG_ADMIN_ONE,
  'POST /api/probe/hello': PROBES_ONLY,
  'POST /api/probe/schedule/register': PROBES_ONLY,
  'POST /api/probe/schedule/renew': PROBES_ONLY,
  'POST /api/probe/schedule/claim': PROBES_ONLY,
  'POST /api/probe/schedule/held': PROBES_ONLY,
  'POST /api/probe/schedule/release': PROBES_ONLY,
  'POST /api/probe/schedule/resign': PROBES_ONLY,
  'POST /api/probe/schedule/load': PROBES_ONLY,
  'POST /api/probe/schedule/changes': PROBES_ONLY,
  'POST /api/probe/schedule/wait': PROBES_ONLY,
  'POST /api/probe/results': PROBES_ONLY,
  'POST /api/probe/screenshots': PROBES_ONLY,
  'DELETE /api/locations/{code}/keys/{keyId}': ORG_ADMIN_ONE,
  'GET /api/locations/{code}/probes': 'U AAAAA AA DDD HH',
  // Platform staff read every location (A's private one included); changes are platform admins' and only on platform locations.
  'GET /api/admin/locations': 'U DDDDD DD DDD DA',
  'POST /api/admin/locations': PLATFORM_ADMIN,
  'GET /api/admin/locations/{code}': 'U DDDDD DD DDD DA',
  'PATCH /api/admin/locations/{code}': PLATFORM_ADMIN,
  'DELETE /api/admin/locations/{code}': PLATFORM_ADMIN,
  'GET /api/admin/locations/{code}/keys': 'U DDDDD DD DDD DA',
  'POST /api/admin/locations/{code}/keys': PLATFORM_ADMIN,
  'DELETE /api/admin/locations/{code}/keys/{keyId}': PLATFORM_ADMIN,
  'GET /api/admin/locations/{code}/probes': 'U DDDDD DD DDD DA',
};

/** A row, checked for shape. */
export function rowOf(key: string): string {
  const row = MATRIX[key];
  if (row === undefined) throw new Error(`no row for ${key}`);
  const groups = row.split(' ');
  if (groups.length !== COLUMNS.length || groups.some((g, i) => g.length !== COLUMNS[i]!.length || [...g].some((l) => !LETTERS[l]))) {
    throw new Error(`${key}: malformed row "${row}"`);
  }
  return row;
}

/** Each caller class's expected outcome for an operation; all n/a when it has no row (the coverage test fails then). */
export function expectedOutcomes(key: string): Record<CallerClass, Outcome> {
  if (MATRIX[key] === undefined) return Object.fromEntries(CALLERS.map((c) => [c, 'n/a'])) as Record<CallerClass, Outcome>;
  const groups = rowOf(key).split(' ');
  const outcomes = {} as Record<CallerClass, Outcome>;
  COLUMNS.forEach((group, i) =>
    group.forEach((caller, j) => {
      outcomes[caller] = LETTERS[groups[i]![j]!]!;
    }),
  );
  return outcomes;
}
