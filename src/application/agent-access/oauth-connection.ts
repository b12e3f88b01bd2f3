import type { AgentRegistration } from '../../domain/agent-access/agent-registration';

/**
 * A connected OAuth app as its users see it: one client (an ID-JAG client_id, or the registration
 * id of a self-registered agent) and the approved registrations behind it in the caller's view.
 */
export interface OauthConnection {
  readonly clientId: string;
  readonly type: 'anonymous' | 'service_auth';
  readonly issuer: string | null;
  readonly scopes: string[];
  readonly registrationIds: string[];
  readonly authorizedByUserIds: string[];
  readonly customerId: number | null;
  readonly connectedAt: Date;
  readonly lastTokenIssuedAt: Date | null;
}

export const connectionClientId = (registration: AgentRegistration): string => registration.clientId ?? registration.id;

export function groupConnections(registrations: AgentRegistration[], lastIssued: Map<string, Date>): OauthConnection[] {
  const byClient = new Map<string, AgentRegistration[]>();
  for (const registration of registrations) {
    const key = connectionClientId(registration);
    byClient.set(key, [...(byClient.get(key) ?? []), registration]);
  }
  return [...byClient.entries()].map(([clientId, group]) => {
    const issued = group.map((r) => lastIssued.get(r.id)).filter((d): d is Date => d !== undefined);
    return {
      clientId,
      type: group[0]!.type,
      issuer: group[0]!.issuer,
      scopes: [...new Set(group.flatMap((r) => r.scopes))],
      registrationIds: group.map((r) => r.id),
      authorizedByUserIds: [...new Set(group.map((r) => r.userId).filter((id): id is string => id !== null))],
      customerId: group[0]!.customerId,
      connectedAt: new Date(Math.min(...group.map((r) => (r.claimedAt ?? r.createdAt).getTime()))),
      lastTokenIssuedAt: issued.length > 0 ? new Date(Math.max(...issued.map((d) => d.getTime()))) : null,
    };
  });
}
