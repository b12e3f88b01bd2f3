import { api } from './http-client';
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
