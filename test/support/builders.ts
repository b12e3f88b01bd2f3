import { randomBytes } from 'node:crypto';
import { api } from './http-client';

export interface SignedUp {
  token: string;
  user: { id: string; organizationId: number; email: string; [key: string]: unknown };
  email: string;
  password: string;
}

export const uniqueEmail = (label = 'user') => `${label}-${randomBytes(5).toString('hex')}@test.example`;

/** A new organization with its first admin, signed in. Each test makes its own. */
export async function anOrganization(label = 'org'): Promise<SignedUp> {
  const email = uniqueEmail(label);
  const password = 'correct horse battery';
  const response = await api('POST', '/api/auth/sign-up/email', {
    body: { name: 'Ada Lovelace', email, password, organizationName: `${label} ${randomBytes(3).toString('hex')}` },
  });
  if (response.status !== 200) throw new Error(`sign-up failed: ${JSON.stringify(response.body)}`);
  return { ...response.body, email, password };
}
