import type { Role } from './role';

/** An invitation link works for seven days, once. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** An administrator's invitation of a person by e-mail into their organization. */
export interface Invitation {
  readonly id: string;
  readonly organizationId: number;
  readonly customerId: number | null;
  readonly email: string;
  readonly role: Role;
  readonly invitedBy: string | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

export const invitationExpiry = (now: Date): Date => new Date(now.getTime() + INVITATION_LIFETIME_MS);

/** The console page an invitee opens: the secret is the last path segment. */
export const acceptUrlOf = (publicBaseUrl: string, token: string): string =>
  `${publicBaseUrl.replace(/\/+$/, '')}/app/invitations/${encodeURIComponent(token)}`;

/** The e-mail that carries the link. */
export function invitationMail(organizationName: string, url: string, expiresAt: Date): { subject: string; text: string } {
  return {
    subject: `You are invited to ${organizationName}`,
    text:
      `You are invited to join ${organizationName} on the monitoring service.\n\n` +
      `Open this link to choose your name and password:\n${url}\n\n` +
      `The link works once, until ${expiresAt.toISOString()}. If you did not expect this, ignore this e-mail.\n`,
  };
}
