import { AppError } from '../shared/app-error';

/** tls: TLS from the first byte (port 465); starttls: upgrade required (587); none: plain text, for trusted networks. */
export const SMTP_SECURITY = ['tls', 'starttls', 'none'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

/** The organization's own SMTP server, for its email channels (else the platform's). The password stays sealed. */
export interface OrganizationSmtp {
  readonly organizationId: number;
  readonly host: string;
  readonly port: number;
  readonly security: SmtpSecurity;
  readonly username: string | null;
  readonly passwordCiphertext: string | null;
  readonly fromAddress: string;
  readonly verifiedAt: Date;
  readonly updatedAt: Date;
}

/** A PATCH: absent fields keep their value; username and password take null to clear them. */
export interface SmtpChange {
  host?: string;
  port?: number;
  security?: SmtpSecurity;
  username?: string | null;
  password?: string | null;
  fromAddress?: string;
}

/** The settings a change leads to, before verification (the password still in the clear, or kept sealed). */
export interface SmtpDraft {
  host: string;
  port: number;
  security: SmtpSecurity;
  username: string | null;
  /** undefined: keep the sealed one; null: none; a string: the new password. */
  password: string | null | undefined;
  fromAddress: string;
}

const DEFAULT_PORT: Record<SmtpSecurity, number> = { tls: 465, starttls: 587, none: 25 };

/**
 * Merges a change into the stored settings. A first setup names host and fromAddress; the port
 * defaults by security; a password needs a username (authentication is both or neither).
 */
export function draftSmtp(current: OrganizationSmtp | null, change: SmtpChange): SmtpDraft {
  const host = change.host ?? current?.host;
  const fromAddress = change.fromAddress ?? current?.fromAddress;
  if (host === undefined) throw new AppError('invalidRequestBody', { field: 'host', reason: 'required' });
  if (fromAddress === undefined) throw new AppError('invalidRequestBody', { field: 'fromAddress', reason: 'required' });
  const security = change.security ?? current?.security ?? 'starttls';
  const port = change.port ?? (change.security === undefined && current ? current.port : DEFAULT_PORT[security]);
  const username = change.username !== undefined ? change.username : (current?.username ?? null);
  const password = username === null ? null : change.password;
  const hasPassword = password === undefined ? current?.passwordCiphertext != null : password !== null;
  if (username !== null && !hasPassword) throw new AppError('invalidRequestBody', { field: 'password', reason: 'required' });
  return { host: host.toLowerCase(), port, security, username, password, fromAddress };
}
