import { expect } from 'chai';
import { SteadyMemo } from '../../../src/application/incidents/steady-memo';
import { sql } from '../../../src/infrastructure/persistence/sql';
import { testServer } from '../../support/test-server';
import { waitFor } from '../../support/wait-for';

/**
 * The test service runs no check worker, as an API node serving no location would; probes' results
 * are recorded there all the same, so its steady memo follows PostgreSQL's alert-state notices itself.
 */
describe('a service without a check worker', function () {
  this.timeout(30_000);

  it('remembers steady monitors while it follows alert-state changes, and forgets one its notice names', async () => {
    const app = await testServer();
    const memo = app.container.get(SteadyMemo);
    const monitorId = 900_000_000 + Math.floor(Math.random() * 1_000_000);
    const watch = memo.watch();
    watch.remember(monitorId, 'probe-site');
    watch.close();
    expect(memo.knows(monitorId, 'probe-site'), 'remembered while following').to.equal(true);

    await app.database.sql.query(sql`SELECT pg_notify('alert_state', ${String(monitorId)})`);
    await waitFor(() => !memo.knows(monitorId, 'probe-site'), { what: 'the notice to reach the memo' });
  });
});
