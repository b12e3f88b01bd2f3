import { randomUUID } from 'node:crypto';
import { TOTP, Secret } from 'otpauth';
import { api } from './http-client';
import { testServer } from './test-server';
import { testClock } from './test-clock';
import { uniqueEmail, type SignedUp } from './builders';
import { sql } from '../../src/infrastructure/persistence/sql';

export const PASSWORD = 'correct horse battery';

/** A customer row of the organization, inserted directly (the tenancy API has its own tests). */
export async function aCustomerRow(organizationId: number, name = 'Customer'): Promise<number> {
  const { database } = await testServer();
  const [row] = await database.sql.query<{ id: number }>(
    sql`INSERT INTO customers (public_id, organization_id, name, created_at, updated_at) VALUES (${randomUUID()}, ${organizationId}, ${name}, now(), now()) RETURNING id`,
  );
  return Number(row!.id);
}

export interface Member {
  id: string;
  email: string;
  token: string;
  cookie: string;
}

/** Creates a user through the API as the organization's admin, then signs them in. */
export async function aMember(
  org: SignedUp,
  role: 'admin' | 'editor' | 'readonly' | 'responder',
  customerId: number | null = null,
): Promise<Member> {
  const email = uniqueEmail(role);
  const created = await api('POST', '/api/users', {
    token: org.token,
    body: { name: `${role} user`, email, password: PASSWORD, role, customerId },
  });
  if (created.status !== 201) throw new Error(`user create failed: ${JSON.stringify(created.body)}`);
  return { id: created.body.id, email, ...(await signIn(email)) };
}

export async function signIn(email: string, password = PASSWORD): Promise<{ token: string; cookie: string }> {
  const response = await api('POST', '/api/auth/sign-in/email', { body: { email, password } });
  if (response.status !== 200 || !response.body.token) throw new Error(`sign-in failed: ${JSON.stringify(response.body)}`);
  return { token: response.body.token, cookie: (response.headers.get('set-cookie') ?? '').split(';')[0]! };
}

export async function anOrgToken(sessionToken: string, body: Record<string, unknown> = { name: 'ci' }): Promise<string> {
  const response = await api('POST', '/api/organization/tokens', { token: sessionToken, body });
  if (response.status !== 201) throw new Error(`token mint failed: ${JSON.stringify(response.body)}`);
  return response.body.token;
}

export async function aCustomerToken(sessionToken: string, customerId: number | null): Promise<string> {
  const response = await api('POST', '/api/customer/tokens', {
    token: sessionToken,
    body: { name: 'customer ci', expiresInDays: 30, customerId },
  });
  if (response.status !== 201) throw new Error(`customer token mint failed: ${JSON.stringify(response.body)}`);
  return response.body.token;
}

/** The current TOTP code for a secret taken from a totpURI, at the server's (test) time. */
export function totpCode(totpURI: string): string {
  const secret = new URL(totpURI).searchParams.get('secret')!;
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: testClock.now().getTime() });
}

/** Enables two-step verification for a signed-in user and confirms it with a first code. */
export async function withTwoFactor(token: string, password = PASSWORD): Promise<{ totpURI: string; backupCodes: string[] }> {
  const enabled = await api('POST', '/api/auth/two-factor/enable', { token, body: { password } });
  if (enabled.status !== 200) throw new Error(`2fa enable failed: ${JSON.stringify(enabled.body)}`);
  const verified = await api('POST', '/api/auth/two-factor/verify-totp', { token, body: { code: totpCode(enabled.body.totpURI) } });
  if (verified.status !== 200) throw new Error(`2fa verify failed: ${JSON.stringify(verified.body)}`);
  return enabled.body;
}
