import type { ErrorCode } from '../shared/error-codes';

/** A method and path pair; `{id}` stands for one path segment. */
interface Pair {
  readonly methods: readonly string[];
  readonly path: RegExp;
}
const pair = (methods: string, path: string): Pair => ({
  methods: methods.split('|'),
  path: new RegExp(`^${path.replace(/\{id\}/g, '[^/]+')}$`),
});

const TOOLS = /^\/api\/tools\/[^/].*$/;
const API_READ = [/^\/api\/websites(\/.*)?$/, /^\/api\/incidents(\/.*)?$/, /^\/api\/health$/];

/** The fixed method and path pairs each write scope opens. */
export const WRITE_SCOPE_PAIRS: Readonly<Record<'api.write.monitors' | 'api.write.incidents', readonly Pair[]>> = {
  'api.write.monitors': [
    pair('POST', '/api/websites'),
    pair('PATCH|DELETE', '/api/websites/{id}'),
    pair('PATCH', '/api/websites/{id}/check-config'),
    pair('POST', '/api/websites/{id}/trigger-check'),
    pair('POST', '/api/websites/{id}/change-requests'),
    pair('POST', '/api/monitors/{id}'),
    pair('PATCH|DELETE', '/api/monitors/{id}/{id}'),
    // "Check now" under a kind's own path is the same operation as under /api/websites/{id}.
    pair('POST', '/api/monitors/{id}/{id}/trigger-check'),
    pair('POST', '/api/monitors/{id}/{id}/change-requests'),
    pair('POST', '/api/maintenance-windows'),
    pair('PATCH|DELETE', '/api/maintenance-windows/{id}'),
    pair('POST', '/api/tags'),
    pair('PATCH|DELETE', '/api/tags/{id}'),
    pair('POST|DELETE', '/api/monitor-tags'),
  ],
  'api.write.incidents': [
    pair('POST', '/api/incidents'),
    pair('PATCH|DELETE', '/api/incidents/{id}'),
    pair('POST', '/api/incidents/{id}/{id}'),
  ],
};

/** Writes no agent scope ever reaches: billing, credentials, tokens, accounts, consent and platform areas. */
const WRITE_DENYLIST = [
  /^\/api\/billing(\/|$)/,
  /\/billing(\/|$)/,
  /^\/api\/custom-pricing(\/|$)/,
  /\/tokens(\/|$)/,
  /^\/api\/auth(\/|$)/,
  /^\/api\/users(\/|$)/,
  /\/mfa(\/|$)/,
  /^\/api\/oauth(\/|$)/,
  /^\/api\/agent-claim(\/|$)/,
  /^\/api\/(platform-)?admin(\/|$)/,
  /^\/api\/organization\/(smtp|quota-tier|data-export|account-deletion)(\/|$)/,
  /^\/api\/customers\/bulk$/,
];

const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** Writes that act in the authorizing user's name: creating a tag or a change request. */
const NEEDS_AUTHORIZING_USER = [/^\/api\/tags$/, /\/change-requests$/];

export interface AgentReachRequest {
  readonly scopes: readonly string[];
  readonly authorizingUserResolved: boolean;
  /** The platform write kill-switch (agentWritesEnabled). */
  readonly writesEnabled: boolean;
  readonly method: string;
  readonly path: string;
}

/**
 * Where an agent token may go (Authentication > Agent access, rules 1-4): reads on the scope's
 * allowlist, writes only with the switch on and within a granted write scope. Answers the code that
 * refuses the request, or null.
 */
export function agentReachDenial(request: AgentReachRequest): ErrorCode | null {
  const { scopes, method, path } = request;
  if (method === 'GET' || method === 'HEAD') {
    if (TOOLS.test(path)) return null;
    if (scopes.includes('api.read') && API_READ.some((pattern) => pattern.test(path))) return null;
    return 'agentTokenReadOnly';
  }
  if (!WRITE_METHODS.includes(method) || !request.writesEnabled) return 'agentTokenReadOnly';
  if (WRITE_DENYLIST.some((pattern) => pattern.test(path))) return 'agentTokenScopeForbidden';
  const granted = (Object.keys(WRITE_SCOPE_PAIRS) as Array<keyof typeof WRITE_SCOPE_PAIRS>)
    .filter((scope) => scopes.includes(scope))
    .some((scope) => WRITE_SCOPE_PAIRS[scope].some((p) => p.methods.includes(method) && p.path.test(path)));
  if (!granted) return 'agentTokenScopeForbidden';
  if (method === 'POST' && !request.authorizingUserResolved && NEEDS_AUTHORIZING_USER.some((p) => p.test(path))) {
    return 'authorizingUserUnresolved';
  }
  return null;
}
