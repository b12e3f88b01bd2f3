import { expect } from 'chai';
import pg from 'pg';
import { anOrganization } from '../../support/builders';
import { api } from '../../support/http-client';
import { aWebsite } from '../../support/monitoring-fixtures';
import { testDatabase, testServer } from '../../support/test-server';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../src/application/shared/transaction';
import { appendLiveEvents, liveEventsInsert } from '../../../src/infrastructure/live-events/live-event-append';
import { bind } from '../../../src/infrastructure/persistence/sql';

/**
 * The live event log is appended by the service at the end of the change's transaction (no
 * trigger): what a transaction staged is written just before its COMMIT, a nested transaction's
 * with its outer one, and nothing of a transaction (or a nested one) that fails.
 */
describe('live events: appended at the commit of the change that staged them', function () {
  this.timeout(60_000);

  it("writes a staged event at commit (not before), builds its payload from the catalogue's fields, and drops a failed nested transaction's", async () => {
    const app = await testServer();
    const runner = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    const org = await anOrganization('live-append');
    const customer = await api('POST', '/api/customers', {
      token: org.token,
      body: { name: 'Appended customer', email: 'ops@appended.test' },
    });
    const site = await aWebsite().forCustomer(customer.body.customer.id).named('Appended').paused().create(org.token);
    const client = new pg.Client({ connectionString: (await testDatabase()).url });
    await client.connect();
    try {
      const monitorId = Number((await client.query('SELECT id FROM monitors WHERE public_id = $1', [site.publicId])).rows[0].id);
      const logged = async () =>
        (await client.query('SELECT kind, data FROM live_events WHERE organization_id = $1 ORDER BY id', [org.user.organizationId])).rows;
      const before = (await logged()).length;
      let seenInside = -1;
      await runner.run(async () => {
        await runner.run(async (inner) => appendLiveEvents(inner, [{ kind: 'monitor.stateChanged', monitorId }]));
        await runner
          .run(async (inner) => {
            await appendLiveEvents(inner, [{ kind: 'monitor.stateChanged', monitorId }]);
            throw new Error('the nested transaction fails');
          })
          .catch(() => undefined);
        seenInside = (await logged()).length;
      });
      expect(seenInside, 'nothing written before the commit').to.equal(before);
      const after = await logged();
      expect(after.length - before, "the successful nested transaction's event only").to.equal(1);
      expect(after.at(-1)).to.deep.include({ kind: 'monitor.stateChanged' });
      expect(Object.keys(after.at(-1)!.data).sort()).to.deep.equal(['at', 'kind', 'monitorId', 'name', 'state']);
      expect(after.at(-1)!.data).to.include({ monitorId: site.publicId, name: 'Appended', kind: 'website', state: 'paused' });
    } finally {
      await client.end();
    }
  });

  it('gives ids in commit order: an append waits while another transaction that appended has not committed', async () => {
    const org = await anOrganization('live-order');
    const customer = await api('POST', '/api/customers', {
      token: org.token,
      body: { name: 'Ordered customer', email: 'ops@ordered.test' },
    });
    const sites = [
      await aWebsite().forCustomer(customer.body.customer.id).named('First').paused().create(org.token),
      await aWebsite().forCustomer(customer.body.customer.id).named('Second').paused().create(org.token),
    ];
    const { url } = await testDatabase();
    const [first, second] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
    await Promise.all([first.connect(), second.connect()]);
    try {
      const monitorIds = await Promise.all(
        sites.map(async (site) => Number((await first.query('SELECT id FROM monitors WHERE public_id = $1', [site.publicId])).rows[0].id)),
      );
      const append = (client: pg.Client, monitorId: number) => {
        const statement = bind(liveEventsInsert([{ kind: 'monitor.stateChanged', monitorId }]));
        return client.query(statement.text, [...statement.values]);
      };
      await first.query('BEGIN');
      await append(first, monitorIds[0]!);
      await second.query('BEGIN');
      let secondAppended = false;
      const waiting = append(second, monitorIds[1]!).then(() => {
        secondAppended = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(secondAppended, 'the second append waits for the first transaction').to.equal(false);
      await first.query('COMMIT');
      await waiting;
      await second.query('COMMIT');
      const logged = await first.query<{ name: string }>(
        `SELECT data->>'name' AS name FROM live_events WHERE organization_id = $1 AND kind = 'monitor.stateChanged' ORDER BY id`,
        [org.user.organizationId],
      );
      expect(logged.rows.map((row) => row.name).slice(-2)).to.deep.equal(['First', 'Second']);
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
  });
});
