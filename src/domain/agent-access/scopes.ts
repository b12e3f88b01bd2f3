import type { Role } from '../identity/role';

/** Every scope an agent token can carry (Authentication > Agent access > Agent token scopes). */
export const AGENT_SCOPES = ['tools.public', 'api.read', 'api.write.monitors', 'api.write.incidents'] as const;
export type AgentScope = (typeof AGENT_SCOPES)[number];

/** What an anonymous registration holds before and after a user claims it. */
export const PRE_CLAIM_SCOPES: readonly AgentScope[] = ['tools.public'];
export const POST_CLAIM_SCOPES: readonly AgentScope[] = ['api.read'];

export const isAgentScope = (value: string): value is AgentScope => (AGENT_SCOPES as readonly string[]).includes(value);

/** OAuth's space-delimited scope string (or a list) as a deduplicated list; null when absent. */
export function parseScopes(value: string | readonly string[] | null | undefined): string[] | null {
  if (value === null || value === undefined) return null;
  const parts = typeof value === 'string' ? value.split(' ') : value;
  return [...new Set(parts.map((part) => part.trim()).filter((part) => part.length > 0))];
}

export const formatScopes = (scopes: readonly string[]): string => scopes.join(' ');

export const isSubset = (subset: readonly string[], of: readonly string[]): boolean => subset.every((scope) => of.includes(scope));

/**
 * The scopes a user's role lets them delegate to an agent: nobody hands an agent more than they may
 * do themselves. Read-only users delegate reads; responders may also delegate incident writes.
 */
export function delegableScopes(role: Role): readonly AgentScope[] {
  if (role === 'admin' || role === 'editor') return AGENT_SCOPES;
  if (role === 'responder') return ['tools.public', 'api.read', 'api.write.incidents'];
  return ['tools.public', 'api.read'];
}
