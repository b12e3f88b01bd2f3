import { expect } from 'chai';
import { agentApi } from '../../../support/agent-http';
import { anOrganization } from '../../../support/builders';
import { anAccessToken, anAnonymousAgent } from '../../../support/agent-fixtures';
import { testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { PurgeStaleAgentRecords } from '../../../../src/application/agent-access/purge-stale-agent-records';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const DAY = 24 * 3600 * 1000;

describe('agent access: housekeeping job', () => {
  it('purges abandoned registrations and long-expired tokens, and keeps claimed registrations', async () => {
    const { database, container } = await testServer();
    const abandoned = await anAnonymousAgent();
    const oldToken = await anAccessToken(abandoned.identity_assertion);
    const org = await anOrganization();
    const claimed = await anAnonymousAgent();
    await agentApi('POST', '/agent/identity/claim', { token: org.token, json: { claim_token: claimed.claim_token } });
    const longAgo = new Date(testClock.now().getTime() - 8 * DAY);
    await database.sql.query(
      sql`UPDATE agent_registrations SET claim_expires_at = ${longAgo} WHERE id IN (${abandoned.registration_id}, ${claimed.registration_id})`,
    );
    await database.sql.query(
      sql`UPDATE agent_access_tokens SET expires_at = ${longAgo} WHERE registration_id = ${abandoned.registration_id}`,
    );

    const purged = await container.get(PurgeStaleAgentRecords).execute();
    expect(purged.tokens).to.be.greaterThan(0);
    expect(purged.registrations).to.be.greaterThan(0);
    const left = await database.sql.query<{ id: string }>(
      sql`SELECT id FROM agent_registrations WHERE id IN (${abandoned.registration_id}, ${claimed.registration_id})`,
    );
    expect(left.map((row) => row.id)).to.deep.equal([claimed.registration_id]);
    expect((await agentApi('GET', '/api/health', { token: oldToken })).status).to.equal(401);
  });
});
