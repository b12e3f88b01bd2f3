import { api, apiAt } from './http-client';
import { signIn } from './identity-fixtures';
import { TEST_PLATFORM_ADMIN, testServer } from './test-server';
import type { SignedUp } from './builders';
import { aMember } from './identity-fixtures';
import { sql } from '../../src/infrastructure/persistence/sql';
import { waitFor } from './wait-for';

let platformAdminToken: string | undefined;

/**
 * Switches incident management on or off for an organization, as a platform admin does. The
 * platform admin's session is kept (sign-ins are throttled per account) and renewed when other
 * tests moved the shared clock past its lifetime.
 */
export async function setIncidentManagement(organizationId: number, incidentManagementEnabled: boolean): Promise<void> {
  const patch = (token: string) =>
    api('PATCH', `/api/platform-admin/organizations/${organizationId}`, { token, body: { incidentManagementEnabled } });
  platformAdminToken ??= (await signIn(TEST_PLATFORM_ADMIN.email, TEST_PLATFORM_ADMIN.password)).token;
  let response = await patch(platformAdminToken);
  if (response.status === 401) {
    platformAdminToken = (await signIn(TEST_PLATFORM_ADMIN.email, TEST_PLATFORM_ADMIN.password)).token;
    response = await patch(platformAdminToken);
  }
  if (response.status !== 200) throw new Error(`IM switch failed: ${JSON.stringify(response.body)}`);
}

/**
 * Switches incident management on or off as `setIncidentManagement` does, then waits until the
 * service at `url` (another process's, such as a console test's) sees it for `token`'s caller: it
 * keeps resolved callers a few seconds (caller-cache.ts).
 */
export async function setIncidentManagementSeenAt(url: string, token: string, organizationId: number, enabled: boolean): Promise<void> {
  await setIncidentManagement(organizationId, enabled);
  await waitFor(
    async () => {
      const session = await apiAt(url, 'GET', '/api/auth/get-session', { token });
      return (session.body?.incidentManagement === 'enabled') === enabled;
    },
    { timeoutMs: 15_000, everyMs: 250, what: `incident management ${enabled ? 'on' : 'off'} as the service sees it` },
  );
}

/** A signed-in admin of the organization who is also a global supporter (flag set in the database). */
export async function aGlobalSupporter(org: SignedUp): Promise<string> {
  const member = await aMember(org, 'admin');
  const { database } = await testServer();
  await database.sql.query(sql`UPDATE users SET is_global_supporter = true WHERE id = ${member.id}`);
  return (await signIn(member.email)).token;
}

/**
 * Waits until every event accepted for the organization (POST /api/im/events answered 202) has been
 * decided: the 202 means durable, and the decider applies the event to its incident right after.
 */
export async function eventsDecided(organizationId: number, timeoutMs = 15_000): Promise<void> {
  const { database } = await testServer();
  await waitFor(
    async () => {
      const [row] = await database.sql.query<{ n: string }>(
        sql`SELECT count(*)::text AS n FROM im_event_intake WHERE organization_id = ${organizationId}`,
      );
      return row?.n === '0';
    },
    { timeoutMs, what: 'the accepted events decided' },
  );
}
