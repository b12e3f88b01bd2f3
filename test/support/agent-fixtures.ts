import { expect } from 'chai';
import { api, expectError } from './http-client';
import { agentApi } from './agent-http';
import { signIn } from './identity-fixtures';
import { TEST_PLATFORM_ADMIN } from './test-server';
import { testClock } from './test-clock';
import { anIdJag } from './agent-test-issuer';
import type { SignedUp } from './builders';

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const CLAIM_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

let platformAdminToken: string | undefined;

/** Flips platform switches through the platform-admin API (which also resets the settings cache). */
export async function setPlatformSwitches(change: {
  agentAuthEnabled?: boolean;
  agentWritesEnabled?: boolean;
  serviceAuthEnabled?: boolean;
}) {
  platformAdminToken ??= (await signIn(TEST_PLATFORM_ADMIN.email, TEST_PLATFORM_ADMIN.password)).token;
  const response = await api('PATCH', '/api/platform-admin/settings', { token: platformAdminToken, body: change });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
}

/** Runs `work` with switches changed, and puts the defaults back (agent auth and service auth on, writes off). */
export async function withPlatformSwitches<T>(change: Parameters<typeof setPlatformSwitches>[0], work: () => Promise<T>): Promise<T> {
  await setPlatformSwitches(change);
  try {
    return await work();
  } finally {
    await setPlatformSwitches({ agentAuthEnabled: true, agentWritesEnabled: false, serviceAuthEnabled: true });
  }
}

export async function platformAdmin(): Promise<string> {
  platformAdminToken ??= (await signIn(TEST_PLATFORM_ADMIN.email, TEST_PLATFORM_ADMIN.password)).token;
  return platformAdminToken;
}

/** A new anonymous registration (the whole response body). */
export async function anAnonymousAgent(): Promise<Record<string, any>> {
  const response = await agentApi('POST', '/agent/identity', { json: { type: 'anonymous' } });
  expect(response.status, JSON.stringify(response.body)).to.equal(201);
  return response.body;
}

export async function aServiceAuthAgent(loginHint?: string): Promise<Record<string, any>> {
  const response = await agentApi('POST', '/agent/identity', {
    json: { type: 'service_auth', ...(loginHint ? { login_hint: loginHint } : {}) },
  });
  expect(response.status, JSON.stringify(response.body)).to.equal(201);
  return response.body;
}

/** Exchanges an assertion at the token endpoint; answers the raw response. */
export const exchange = (assertion: string, extra: Record<string, string> = {}) =>
  agentApi('POST', '/oauth2/token', { form: { grant_type: JWT_BEARER, assertion, ...extra } });

export const pollClaim = (claimToken: string) =>
  agentApi('POST', '/oauth2/token', { form: { grant_type: CLAIM_GRANT, claim_token: claimToken } });

/** An access token minted from an assertion (asserts success). */
export async function anAccessToken(assertion: string): Promise<string> {
  const response = await exchange(assertion);
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body.access_token;
}

/** First contact answers interaction_required; the owner accepts at the consent step; the claim grant pays out. */
export async function approvedClient(org: SignedUp, clientId: string, scope = 'api.read', selection?: string[]) {
  const first = await exchange(await anIdJag({ email: org.email, clientId, scope }));
  expectError(first, 401, 'interaction_required');
  const claim = first.body.data.claim;
  const context = await api('GET', '/api/agent-claim/context', { token: org.token, query: { user_code: claim.user_code } });
  const decided = await api('POST', '/api/oauth/consent', {
    token: org.token,
    body: { consent_code: context.body.consent_code, accept: true, ...(selection ? { scopes: selection } : {}) },
  });
  expect(decided.status, JSON.stringify(decided.body)).to.equal(200);
  testClock.advance(5_000);
  const polled = await pollClaim(claim.claim_token);
  expect(polled.status, JSON.stringify(polled.body)).to.equal(200);
  return { claim, consentCode: context.body.consent_code as string, token: polled.body.access_token as string };
}

/** Rate limits count in fixed one-minute windows: start a burst well inside one, so it cannot straddle two. */
export function awayFromMinuteBoundary(): void {
  const intoMinute = testClock.now().getTime() % 60_000;
  if (intoMinute > 45_000) testClock.advance(60_000 - intoMinute + 50);
}
