import type { ApiClient } from './api-client';
import type { Change } from './plan';
import type { ResourceType } from './resources';

/** `can` of GET /api/auth/get-session: per resource, per act, whether the service lets the token take it. */
export type Permissions = Record<string, Record<string, boolean>>;

interface SessionAnswer {
  readonly user: { readonly email: string; readonly role: string; readonly customerId: number | null };
  readonly can: Permissions;
}

/** Who the token is, as the service says, and what it may do. */
export const whoAmI = (client: ApiClient): Promise<SessionAnswer> => client.request<SessionAnswer>('GET', '/api/auth/get-session');

/** `wsm whoami`: the token's user, role and scope, then each resource with the acts the token may take. */
export function renderWhoAmI(answer: SessionAnswer): string {
  const { user, can } = answer;
  const scope = user.customerId === null ? 'the organization' : `customer ${user.customerId}`;
  const lines = [`${user.email} · ${user.role} · ${scope}`, '', 'May:'];
  for (const [resource, acts] of Object.entries(can)) {
    const allowed = Object.entries(acts)
      .filter(([, yes]) => yes)
      .map(([act]) => act);
    lines.push(`  ${resource}: ${allowed.length > 0 ? allowed.join(', ') : '(nothing)'}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The act of the service's role gates each planned change is (a tag belongs to its monitors' writers). */
const ACT_OF: Record<ResourceType, (action: Change['action']) => [string, string]> = {
  monitor: (action) => ['monitor', action],
  tag: () => ['monitor', 'update'],
  channel: (action) => ['channel', action],
  customField: () => ['customField', 'manage'],
  maintenanceWindow: (action) => ['maintenanceWindow', action],
  statusPage: (action) => ['statusPage', action],
};

/** The planned changes the token may not make (asked of the service before the first write, so apply refuses whole). */
export function refusedChanges(changes: readonly Change[], can: Permissions): string[] {
  return changes
    .filter((change) => {
      const [resource, act] = ACT_OF[change.type](change.action);
      return can[resource]?.[act] !== true;
    })
    .map((change) => `${change.action} ${change.type} ${change.key}`);
}
