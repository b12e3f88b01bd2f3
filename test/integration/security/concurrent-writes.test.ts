import { expect } from 'chai';
import pg from 'pg';
import { testServer } from '../../support/test-server';
import { waitFor } from '../../support/wait-for';
import { api, expectError, type ApiResponse } from '../../support/http-client';
import { anOrganization, uniqueEmail } from '../../support/builders';
import { aMember, PASSWORD } from '../../support/identity-fixtures';
import { aMonitoredCustomer, aTag, aWebsite } from '../../support/monitoring-fixtures';

/**
 * Found by the tenancy matrix, which sends one request as every caller class at once: identical
 * writes racing each other ended in a database constraint and a 500. Each must answer a 2xx or the
 * documented 409, whichever request wins.
 */
describe('security: identical writes racing each other', () => {
  const together = (count: number, send: () => Promise<ApiResponse>) => Promise.all(Array.from({ length: count }, send));
  const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status).sort();

  it('two sign-ups with one e-mail address: one organization, the other answers 409 emailAlreadyRegistered', async () => {
    const email = uniqueEmail('race');
    const responses = await together(6, () =>
      api('POST', '/api/auth/sign-up/email', {
        body: { name: 'Racer', email, password: PASSWORD, organizationName: 'Race' },
      }),
    );
    expect(statuses(responses)).to.deep.equal([200, 409, 409, 409, 409, 409]);
    for (const refused of responses.filter((r) => r.status !== 200)) expectError(refused, 409, 'emailAlreadyRegistered');
  });

  it('two admins creating one user at once: one 201, the other 409 emailAlreadyRegistered', async () => {
    const org = await anOrganization('race');
    const email = uniqueEmail('race-user');
    const responses = await together(6, () =>
      api('POST', '/api/users', {
        token: org.token,
        body: { name: 'Twin', email, password: PASSWORD, role: 'readonly' },
      }),
    );
    expect(statuses(responses)).to.deep.equal([201, 409, 409, 409, 409, 409]);
    for (const refused of responses.filter((r) => r.status !== 201)) expectError(refused, 409, 'emailAlreadyRegistered');
  });

  it('a deletion request sent twice at once: both answer the one pending request, or the loser 409 conflict', async () => {
    const org = await anOrganization('race');
    const member = await aMember(org, 'editor');
    const responses = await together(6, () => api('POST', `/api/users/${member.id}/deletion-request`, { token: org.token }));
    for (const response of responses) {
      if (response.status !== 202) expectError(response, 409, 'conflict');
    }
    expect(responses.filter((r) => r.status === 202)).to.have.length.greaterThan(0);
    // One pending request, whichever calls won.
    expect(new Set(responses.filter((r) => r.status === 202).map((r) => r.body.id)).size).to.equal(1);
  });

  it('one notification channel renamed by several callers at once: 200 or 409 conflict, never 500', async () => {
    const org = await anOrganization('race');
    const created = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'Race', type: 'webhook', config: { url: 'https://hooks.example.com/race' } },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const responses = await together(6, () =>
      api('PATCH', `/api/notification-channels/${created.body.publicId ?? created.body.id}`, {
        token: org.token,
        body: { name: 'Renamed' },
      }),
    );
    for (const response of responses) {
      if (response.status !== 200) expectError(response, 409, 'conflict');
    }
    expect(responses.filter((r) => r.status === 200)).to.have.length.greaterThan(0);
  });

  it("one website edited (PATCH, check-config, a tag recoloured, a check triggered) at once: 200 or 409 conflict, never a deadlock's 500", async () => {
    const org = await anOrganization('race');
    const customer = await aMonitoredCustomer(org.token);
    const website = await aWebsite(org.token, { customerId: customer.id });
    const tag = await aTag(org.token, { customerId: customer.id });
    await api('POST', '/api/monitor-tags', {
      token: org.token,
      body: { tagId: tag.id, monitorId: website.publicId, monitorType: 'website' },
    });
    for (let round = 0; round < 3; round++) {
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          [
            () => api('PATCH', `/api/websites/${website.publicId}`, { token: org.token, body: { name: `Renamed ${round}-${i}` } }),
            () =>
              api('PATCH', `/api/websites/${website.publicId}/check-config`, { token: org.token, body: { checkSslEnabled: i % 2 === 0 } }),
            () => api('POST', `/api/websites/${website.publicId}/trigger-check`, { token: org.token }),
            () => api('PATCH', `/api/tags/${tag.id}`, { token: org.token, body: { color: i % 2 ? '#10B981' : '#3B82F6' } }),
          ][i % 4]!(),
        ),
      );
      for (const response of responses) {
        if (response.status >= 300) expectError(response, 409, 'conflict');
      }
    }
  });

  it("a website edit that PostgreSQL picks as a deadlock's victim answers 409 conflict (safe to retry), not 500", async () => {
    const org = await anOrganization('race');
    const customer = await aMonitoredCustomer(org.token);
    const website = await aWebsite(org.token, { customerId: customer.id });
    const { databaseUrl } = await testServer();
    const other = new pg.Client({ connectionString: databaseUrl });
    const watcher = new pg.Client({ connectionString: databaseUrl });
    await Promise.all([other.connect(), watcher.connect()]);
    try {
      // The other transaction waits longer before checking for a deadlock, so the service's is the one refused.
      await other.query(`SET deadlock_timeout = '20s'`);
      const otherPid = Number((await other.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
      await other.query('BEGIN');
      await other.query(
        'UPDATE check_schedule SET interval_ms = interval_ms WHERE monitor_id = (SELECT id FROM monitors WHERE public_id = $1)',
        [website.publicId],
      );
      // Pausing locks the monitor's row, then its trigger waits for the schedule rows held above...
      const paused = api('PATCH', `/api/websites/${website.publicId}`, { token: org.token, body: { status: 'paused' } });
      await waitFor(
        async () =>
          (await watcher.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> $1`, [otherPid])).rowCount,
        { what: 'the service waiting for the schedule rows' },
      );
      // ...and this waits for the monitor's row: a cycle.
      const blocked = other
        .query('UPDATE monitors SET name = name WHERE public_id = $1', [website.publicId])
        .catch((error: Error) => error);
      expectError(await paused, 409, 'conflict');
      expect(await blocked).not.to.be.instanceOf(Error);
    } finally {
      await other.query('ROLLBACK').catch(() => undefined);
      await Promise.all([other.end(), watcher.end()]);
    }
  });
});
