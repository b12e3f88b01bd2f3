import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { api, expectError } from '../../../support/http-client';
import { anOrganization, type SignedUp } from '../../../support/builders';
import { aCustomerRow, aMember, aCustomerToken, anOrgToken, signIn } from '../../../support/identity-fixtures';
import { aGlobalSupporter } from '../../../support/im-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';
import { anAccessToken, anAnonymousAgent } from '../../../support/agent-fixtures';
import { agentApi } from '../../../support/agent-http';
import { TEST_PLATFORM_ADMIN, testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { sql, type Sql } from '../../../../src/infrastructure/persistence/sql';

let platformAdminToken: string | undefined;

/** The configured platform admin's session, kept (sign-ins are throttled) and renewed once expired. */
async function platformAdmin(): Promise<string> {
  if (platformAdminToken && (await api('GET', '/api/organization', { token: platformAdminToken })).status === 200)
    return platformAdminToken;
  platformAdminToken = (await signIn(TEST_PLATFORM_ADMIN.email, TEST_PLATFORM_ADMIN.password)).token;
  return platformAdminToken;
}

/** Agent writes switched on for `work`, then off again (the default), through this file's renewing session. */
async function withAgentWrites(work: () => Promise<void>): Promise<void> {
  const flip = async (agentWritesEnabled: boolean) => {
    const response = await api('PATCH', '/api/platform-admin/settings', { token: await platformAdmin(), body: { agentWritesEnabled } });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
  };
  await flip(true);
  try {
    await work();
  } finally {
    await flip(false);
  }
}

const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}`;

async function run<T = Record<string, unknown>>(statement: Sql): Promise<T[]> {
  return (await testServer()).database.sql.query<T>(statement);
}

async function renamed(org: SignedUp, name: string, billingEmail?: string): Promise<void> {
  const response = await api('PATCH', '/api/organization', { token: org.token, body: { name, ...(billingEmail ? { billingEmail } : {}) } });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
}

const READS = (org: number, user: string) =>
  [
    ['GET', '/api/admin/organizations'],
    ['GET', `/api/admin/organizations/${org}`],
    ['GET', '/api/admin/users'],
    ['GET', `/api/admin/users/${user}`],
    ['GET', '/api/admin/usage'],
  ] as const;
const ACTIONS = (user: string) =>
  [
    ['POST', `/api/admin/users/${user}/deactivate`],
    ['POST', `/api/admin/users/${user}/reactivate`],
  ] as const;

describe('platform administration views (/api/admin/**)', () => {
  it('lists organizations filtered by status and searched by name, billing email or custom domain, paged and sorted', async () => {
    const token = await platformAdmin();
    const tag = unique('acme');
    const [a, b, c] = [await anOrganization('admin-a'), await anOrganization('admin-b'), await anOrganization('admin-c')];
    await renamed(a, `${tag} Alpha`);
    await renamed(b, `${tag} Beta`, `billing@${tag}.example`);
    await renamed(c, 'Unrelated Gamma');
    await run(
      sql`INSERT INTO custom_domains (public_id, organization_id, hostname, kind, status, verification_token, created_at, updated_at)
               VALUES (${randomUUID()}, ${c.user.organizationId}, ${`status.${tag}.example`}, 'whiteLabel', 'pending', 'token', now(), now())`,
    );
    await aMonitorRow(b.user.organizationId, await aCustomerRow(b.user.organizationId));
    await aMonitorRow(b.user.organizationId, await aCustomerRow(b.user.organizationId));

    const byName = await api('GET', '/api/admin/organizations', { token, query: { search: tag.toUpperCase() } });
    expect(byName.status, JSON.stringify(byName.body)).to.equal(200);
    expect(byName.body).to.include({ total: 3, page: 1, perPage: 50 });
    expect(byName.body.items.map((o: any) => o.name)).to.deep.equal([`${tag} Alpha`, `${tag} Beta`, 'Unrelated Gamma']);
    expect(byName.body.items[1]).to.deep.equal({
      id: b.user.organizationId,
      publicId: byName.body.items[1].publicId,
      name: `${tag} Beta`,
      status: 'active',
      billingEmail: `billing@${tag}.example`,
      vatId: null,
      countryCode: null,
      incidentManagementEnabled: false,
      createdAt: byName.body.items[1].createdAt,
      customers: 2,
      monitors: 2,
      members: 1,
    });

    const byMonitors = await api('GET', '/api/admin/organizations', {
      token,
      query: { search: tag, sort: '-monitors', perPage: '1', page: '1' },
    });
    expect(byMonitors.body).to.include({ total: 3, perPage: 1 });
    expect(byMonitors.body.items.map((o: any) => o.id)).to.deep.equal([b.user.organizationId]);
    const beyond = await api('GET', '/api/admin/organizations', { token, query: { search: tag, page: '9' } });
    expect(beyond.body).to.deep.equal({ items: [], total: 3, page: 9, perPage: 50 });

    const admin = await platformAdmin();
    await api('PATCH', `/api/platform-admin/organizations/${a.user.organizationId}`, { token: admin, body: { status: 'suspended' } });
    try {
      const suspended = await api('GET', '/api/admin/organizations', { token, query: { search: tag, status: 'suspended' } });
      expect(suspended.body.items.map((o: any) => [o.id, o.status])).to.deep.equal([[a.user.organizationId, 'suspended']]);
    } finally {
      await api('PATCH', `/api/platform-admin/organizations/${a.user.organizationId}`, { token: admin, body: { status: 'active' } });
    }
    expectError(await api('GET', '/api/admin/organizations', { token, query: { sort: 'members' } }), 400, 'validationFailed');
    expectError(await api('GET', '/api/admin/organizations', { token, query: { status: 'gone' } }), 400, 'validationFailed');
  });

  it('shows one organization with its usage, by public or legacy id; unknown ids answer organizationNotFound', async () => {
    const token = await platformAdmin();
    const org = await anOrganization('usage');
    const organizationId = org.user.organizationId;
    const customerId = await aCustomerRow(organizationId);
    await aCustomerRow(organizationId);
    await aMember(org, 'editor');
    const monitor = await aMonitorRow(organizationId, customerId);
    await aMonitorRow(organizationId, customerId);
    await run(sql`UPDATE monitors SET kind = 'dns' WHERE id = ${monitor.id}`);
    await run(sql`UPDATE monitor_counts SET n = n - 1 WHERE customer_id = ${customerId} AND kind = 'website'`);
    await run(sql`INSERT INTO monitor_counts (organization_id, customer_id, kind, n) VALUES (${organizationId}, ${customerId}, 'dns', 1)`);
    // Results now: after any rolled-up hour, so they are counted raw.
    const now = testClock.now();
    await run(sql`SELECT check_results_ensure_partition(${now.toISOString().slice(0, 10)}::date)`);
    await run(
      sql`INSERT INTO check_results (monitor_id, checked_at, location_id, status) SELECT ${monitor.id}, ${now}, g, 1 FROM generate_series(1, 3) g`,
    );
    await run(
      sql`INSERT INTO customer_sms_usage (customer_id, month, sms_count) VALUES (${customerId}, date_trunc('month', ${now}::timestamptz AT TIME ZONE 'UTC')::date, 7)`,
    );
    for (const [status, ageDays] of [
      ['delivered', 1],
      ['delivered', 2],
      ['failed', 3],
      ['pending', 0],
      ['delivered', 8],
    ] as const) {
      await run(
        sql`INSERT INTO notification_deliveries (organization_id, outbox_id, channel_public_id, channel_type, event, payload, status, next_attempt_at, created_at)
                 VALUES (${organizationId}, 1, ${randomUUID()}, 'webhook', 'test', '{}', ${status}, now(), ${new Date(now.getTime() - ageDays * 86_400_000 - 60_000)})`,
      );
    }
    await run(
      sql`INSERT INTO custom_domains (public_id, organization_id, hostname, kind, status, verification_token, created_at, updated_at)
               VALUES (${randomUUID()}, ${organizationId}, ${`${unique('white')}.example`}, 'whiteLabel', 'active', 'token', now(), now())`,
    );
    const [domain] = await run<{ hostname: string }>(sql`SELECT hostname FROM custom_domains WHERE organization_id = ${organizationId}`);

    const detail = await api('GET', `/api/admin/organizations/${organizationId}`, { token });
    expect(detail.status, JSON.stringify(detail.body)).to.equal(200);
    expect(detail.body).to.include({
      id: organizationId,
      status: 'active',
      customers: 2,
      monitors: 2,
      members: 2,
      incidentManagementEnabled: false,
    });
    expect(detail.body.usage).to.deep.equal({
      monitorsByKind: { website: 1, dns: 1 },
      activeMembers: 2,
      checks: { last24h: 3, last30d: 3 },
      smsThisMonth: 7,
      deliveriesLast7d: { delivered: 2, failed: 1, pending: 1 },
      storage: { resultRows: 3 },
      customDomains: [domain!.hostname],
    });
    const byPublicId = await api('GET', `/api/admin/organizations/${detail.body.publicId}`, { token });
    expect(byPublicId.body).to.deep.equal(detail.body);
    expectError(await api('GET', `/api/admin/organizations/${randomUUID()}`, { token }), 404, 'organizationNotFound');
    expectError(await api('GET', '/api/admin/organizations/not-an-id', { token }), 404, 'organizationNotFound');
  });

  it('lists users of every organization by email or name, organization, role and isActive, with platform flags, MFA and last sign-in', async () => {
    const token = await platformAdmin();
    const org = await anOrganization('people');
    const organizationId = org.user.organizationId;
    const editor = await aMember(org, 'editor');
    const readonly = await aMember(org, 'readonly');
    await run(sql`UPDATE users SET is_active = false WHERE id = ${readonly.id}`);

    const all = await api('GET', '/api/admin/users', { token, query: { organizationId: String(organizationId), sort: 'createdAt' } });
    expect(all.status, JSON.stringify(all.body)).to.equal(200);
    expect(all.body.total).to.equal(3);
    expect(all.body.items.map((u: any) => u.email)).to.deep.equal([org.email, editor.email, readonly.email]);
    // aMember signed the editor in: that sign-in is recorded (the readonly user's too).
    expect(all.body.items[1].lastSignInAt).to.be.a('string');
    const signedUpAt = Date.parse(all.body.items[1].lastSignInAt);
    expect(all.body.items[1]).to.deep.equal({
      id: editor.id,
      organizationId,
      organizationPublicId: all.body.items[1].organizationPublicId,
      organizationName: all.body.items[1].organizationName,
      organizationStatus: 'active',
      customerId: null,
      name: 'editor user',
      email: editor.email,
      role: 'editor',
      isActive: true,
      isGlobalAdmin: false,
      isGlobalSupporter: false,
      mfaEnrolled: false,
      lastSignInAt: new Date(signedUpAt).toISOString(),
      createdAt: all.body.items[1].createdAt,
    });
    expect(signedUpAt).to.be.at.most(testClock.now().getTime());

    const editors = await api('GET', '/api/admin/users', { token, query: { organizationId: String(organizationId), role: 'editor' } });
    expect(editors.body.items.map((u: any) => u.id)).to.deep.equal([editor.id]);
    const inactive = await api('GET', '/api/admin/users', { token, query: { organizationId: String(organizationId), isActive: 'false' } });
    expect(inactive.body.items.map((u: any) => u.id)).to.deep.equal([readonly.id]);
    const byEmail = await api('GET', '/api/admin/users', { token, query: { search: editor.email.toUpperCase() } });
    expect(byEmail.body).to.deep.include({ total: 1 });
    expect(byEmail.body.items[0].id).to.equal(editor.id);

    const platform = await api('GET', '/api/admin/users', { token, query: { search: TEST_PLATFORM_ADMIN.email } });
    expect(platform.body.items[0]).to.include({ email: TEST_PLATFORM_ADMIN.email, isGlobalAdmin: true });
    const one = await api('GET', `/api/admin/users/${editor.id}`, { token });
    expect(one.body).to.include({ id: editor.id, activeSessions: 1 });
    expect(one.body).to.not.have.any.keys('passwordHash', 'totpSecret', 'backupCodeHashes');
    expectError(await api('GET', `/api/admin/users/${randomUUID()}`, { token }), 404, 'userNotFound');
    expectError(await api('GET', '/api/admin/users/not-a-uuid', { token }), 404, 'userNotFound');
    expectError(await api('GET', '/api/admin/users', { token, query: { isActive: 'yes' } }), 400, 'validationFailed');
  });

  it('answers platform totals and the organizations using the most', async () => {
    const token = await platformAdmin();
    const org = await anOrganization('heavy');
    const customerId = await aCustomerRow(org.user.organizationId);
    // More SMS this month than any other test organization sends.
    await run(
      sql`INSERT INTO customer_sms_usage (customer_id, month, sms_count) VALUES (${customerId}, date_trunc('month', ${testClock.now()}::timestamptz AT TIME ZONE 'UTC')::date, 1000000)`,
    );
    const usage = await api('GET', '/api/admin/usage', { token, query: { top: '3' } });
    expect(usage.status, JSON.stringify(usage.body)).to.equal(200);
    const { totals, top } = usage.body;
    expect(totals.smsThisMonth).to.be.at.least(1_000_000);
    expect(totals.organizations).to.equal(Object.values(totals.organizationsByStatus as Record<string, number>).reduce((s, n) => s + n, 0));
    expect(totals.monitors).to.equal(Object.values(totals.monitorsByKind as Record<string, number>).reduce((s, n) => s + n, 0));
    expect(top.smsThisMonth[0]).to.deep.include({ organizationId: org.user.organizationId, value: 1_000_000 });
    for (const list of [top.monitors, top.checksLast24h, top.smsThisMonth]) {
      expect(list.length).to.be.at.most(3);
      const values = list.map((f: any) => f.value);
      expect(values).to.deep.equal([...values].sort((x: number, y: number) => y - x));
    }
    expectError(await api('GET', '/api/admin/usage', { token, query: { top: '0' } }), 400, 'validationFailed');
  });

  it('lets supporters read every view, and refuses them the actions (platformAdminRequired)', async () => {
    const org = await anOrganization('supported');
    const supporter = await aGlobalSupporter(org);
    const target = await aMember(org, 'editor');
    for (const [method, path] of READS(org.user.organizationId, target.id)) {
      expect((await api(method, path, { token: supporter })).status, `${method} ${path}`).to.equal(200);
    }
    for (const [method, path] of ACTIONS(target.id))
      expectError(await api(method, path, { token: supporter }), 403, 'platformAdminRequired');
    expect((await api('GET', `/api/admin/users/${target.id}`, { token: supporter })).body.isActive).to.equal(true);
    // Platform staff pass the organization status gate: their own organization suspended, the views still answer.
    const admin = await platformAdmin();
    await api('PATCH', `/api/platform-admin/organizations/${org.user.organizationId}`, { token: admin, body: { status: 'suspended' } });
    try {
      expectError(await api('GET', '/api/customers', { token: org.token }), 423);
      expect((await api('GET', '/api/admin/usage', { token: supporter })).status).to.equal(200);
    } finally {
      await api('PATCH', `/api/platform-admin/organizations/${org.user.organizationId}`, { token: admin, body: { status: 'active' } });
    }
  });

  it('refuses every organization user, organization admins included, and every token with platformAdminRequired', async () => {
    const org = await anOrganization('ordinary');
    const [editor, readonly] = [await aMember(org, 'editor'), await aMember(org, 'readonly')];
    const orgToken = await anOrgToken(org.token);
    const platformToken = await anOrgToken(await platformAdmin());
    for (const token of [org.token, editor.token, readonly.token, orgToken, platformToken]) {
      for (const [method, path] of [...READS(org.user.organizationId, editor.id), ...ACTIONS(editor.id)]) {
        expectError(await api(method, path, { token }), 403, 'platformAdminRequired');
      }
    }
    expect((await api('GET', `/api/admin/users/${editor.id}`, { token: await platformAdmin() })).body.isActive).to.equal(true);
  });

  it('refuses customer-scoped tokens and customer-bound users with customerScopedTokenForbidden', async () => {
    const org = await anOrganization('scoped');
    const customerId = await aCustomerRow(org.user.organizationId);
    const customerToken = await aCustomerToken(org.token, customerId);
    const bound = await aMember(org, 'admin', customerId);
    for (const token of [customerToken, bound.token]) {
      for (const [method, path] of [...READS(org.user.organizationId, bound.id), ...ACTIONS(bound.id)]) {
        expectError(await api(method, path, { token }), 403, 'customerScopedTokenForbidden');
      }
    }
  });

  it('refuses agent tokens: reads agentTokenReadOnly, writes agentTokenReadOnly, or agentTokenScopeForbidden with agent writes on', async () => {
    const org = await anOrganization('agents');
    const agent = await anAnonymousAgent();
    expect(
      (await agentApi('POST', '/agent/identity/claim', { token: org.token, json: { claim_token: agent.claim_token } })).status,
    ).to.equal(200);
    const token = await anAccessToken(agent.identity_assertion);
    for (const [method, path] of [...READS(org.user.organizationId, org.user.id), ...ACTIONS(org.user.id)]) {
      expectError(await api(method, path, { token }), 403, 'agentTokenReadOnly');
    }
    await withAgentWrites(async () => {
      for (const [method, path] of ACTIONS(org.user.id)) expectError(await api(method, path, { token }), 403, 'agentTokenScopeForbidden');
    });
  });

  it('lets a platform admin deactivate a user (sessions and tokens refused) and reactivate them', async () => {
    const token = await platformAdmin();
    const org = await anOrganization('deactivate');
    const editor = await aMember(org, 'editor');
    const editorToken = await anOrgToken(editor.token);

    const deactivated = await api('POST', `/api/admin/users/${editor.id}/deactivate`, { token });
    expect(deactivated.status, JSON.stringify(deactivated.body)).to.equal(200);
    expect(deactivated.body).to.include({ id: editor.id, isActive: false, activeSessions: 0 });
    expectError(await api('GET', '/api/organization', { token: editor.token }), 401, 'unauthorized');
    expectError(await api('GET', '/api/organization', { token: editorToken }), 403, 'accountDeactivated');
    expect((await api('POST', `/api/admin/users/${editor.id}/deactivate`, { token })).body.isActive).to.equal(false);

    const reactivated = await api('POST', `/api/admin/users/${editor.id}/reactivate`, { token });
    expect(reactivated.body).to.include({ isActive: true });
    const again = await signIn(editor.email);
    expect((await api('GET', '/api/organization', { token: again.token })).status).to.equal(200);
    expectError(await api('POST', `/api/admin/users/${randomUUID()}/deactivate`, { token }), 404, 'userNotFound');
  });

  it("keeps an organization's last active admin (lastAdminProtected) and the platform admin's own account (userSelfChangeForbidden)", async () => {
    const token = await platformAdmin();
    const org = await anOrganization('sole');
    expectError(await api('POST', `/api/admin/users/${org.user.id}/deactivate`, { token }), 400, 'lastAdminProtected');
    const [self] = await run<{ id: string; organization_id: number }>(
      sql`SELECT id, organization_id FROM users WHERE email = ${TEST_PLATFORM_ADMIN.email}`,
    );
    // A second admin of the platform's organization, so the self rule is the one that answers.
    await aMember(
      {
        token,
        user: { id: self!.id, organizationId: self!.organization_id, email: TEST_PLATFORM_ADMIN.email },
        email: TEST_PLATFORM_ADMIN.email,
        password: TEST_PLATFORM_ADMIN.password,
      },
      'admin',
    );
    expectError(await api('POST', `/api/admin/users/${self!.id}/deactivate`, { token }), 400, 'userSelfChangeForbidden');
    expect((await api('GET', '/api/organization', { token: org.token })).status).to.equal(200);
  });
});
