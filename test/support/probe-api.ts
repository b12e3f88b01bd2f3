import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { api, apiAt, type ApiResponse } from './http-client';
import { signIn } from './identity-fixtures';
import { TEST_PLATFORM_ADMIN, testServer } from './test-server';

/** A location with a live probe key, made through the API (a private one with an organization's token, else a platform one). */
export interface ProbeSite {
  readonly code: string;
  readonly key: string;
  readonly keyId: string;
}

export async function aProbeSite(ownerToken: string | 'platform', label = 'site'): Promise<ProbeSite> {
  const code = `${label}-${randomBytes(3).toString('hex')}`;
  // The platform admin signs in afresh: a session kept from earlier tests may have expired on the test clock.
  const [base, token] =
    ownerToken === 'platform'
      ? ['/api/admin/locations', (await signIn(TEST_PLATFORM_ADMIN.email, TEST_PLATFORM_ADMIN.password)).token]
      : ['/api/locations', ownerToken];
  const created = await api('POST', base, { token, body: { code, name: `Probe site ${code}` } });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  const issued = await api('POST', `${base}/${code}/keys`, { token, body: { name: 'probe' } });
  expect(issued.status, JSON.stringify(issued.body)).to.equal(201);
  return { code, key: issued.body.secret, keyId: issued.body.id };
}

/** One probe API call, as a probe makes it: its key, its instance id, a JSON body. */
export async function probeCall(
  key: string,
  instance: string,
  path: string,
  body: unknown,
  options: { rawBody?: string; headers?: Record<string, string>; url?: string } = {},
): Promise<ApiResponse> {
  const url = options.url ?? (await testServer()).url;
  return apiAt(url, 'POST', `/api/probe${path}`, {
    token: key,
    headers: { 'x-probe-instance': instance, 'content-type': 'application/json', ...options.headers },
    ...(options.rawBody !== undefined ? { rawBody: options.rawBody } : { body }),
  });
}

/** A probe status as sent with each batch. */
export const PROBE_STATUS = { monitorsHeld: 1, checksPerSecond: 0.5, lagMs: 0, buffered: 0, dropped: 0 };

/** A compact up (or down) result of an HTTP check, checked at `at` (epoch ms). */
export function aCompactResult(seq: number, instance: string, monitorId: number, at: number, down = false): unknown[] {
  return [
    seq,
    `probe:${instance}:0`,
    monitorId,
    at,
    at,
    at,
    'http',
    12,
    1,
    2,
    null,
    8,
    down ? [['down', 'unexpectedStatus', 'got 500']] : null,
    { http: { status: down ? 500 : 200, headers: {}, finalUrl: 'http://t.example/', redirects: [], bodyBytes: 2 } },
  ];
}
