import { expect } from 'chai';
import pino from 'pino';
import { startApplication, type RunningApplication } from '../../../src/main/application';
import { AdmitImEvent } from '../../../src/application/incident-management/admit-im-event';
import { apiAt } from '../../support/http-client';
import { aCallerSet } from '../../support/callers';
import { setIncidentManagement } from '../../support/im-fixtures';
import { testConfig, testDatabase, testServer } from '../../support/test-server';
import { sql } from '../../../src/infrastructure/persistence/sql';

/**
 * A second service on the test database takes events; its event rate is counted in its memory and
 * reaches the shared counter in batches (every 100 ms). A graceful stop writes what it has admitted
 * and not written yet before its database closes, so the other processes count those events too.
 */
describe('the event rate at a graceful stop', function () {
  this.timeout(60_000);
  let app: RunningApplication | undefined;
  afterEach(async () => {
    await app?.stop();
    app = undefined;
  });

  it('writes the hits admitted and not yet written to the shared counter before the database closes', async () => {
    const { database } = await testServer();
    const callers = await aCallerSet();
    await setIncidentManagement(callers.organizationId, true);
    const hits = async () =>
      Number(
        (
          await database.sql.query<{ n: string }>(
            sql`SELECT coalesce(sum(hits), 0)::text AS n FROM rate_limit_counters WHERE bucket = ${`im-events:${callers.organizationId}`}`,
          )
        )[0]!.n,
      );
    app = await startApplication(
      { ...testConfig(), databaseUrl: (await testDatabase()).url },
      { jobs: false, checkWorker: false, notificationWorker: false, logger: pino({ level: 'silent' }) },
    );
    const running = app;
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        apiAt(running.url, 'POST', '/api/im/events', {
          token: callers.orgToken,
          body: {
            routing_key: 'r',
            event_action: 'trigger',
            dedup_key: `at-stop-${i}`,
            payload: { summary: 's', source: 't', severity: 'error' },
          },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).to.deep.equal(Array(5).fill(202));
    // What the route admitted is written, as the flush timer would have.
    const admit = running.container.get(AdmitImEvent);
    await admit.write();
    expect(await hits()).to.equal(5);
    // Admitted just before the stop, as the last requests before it are: their write is still 100 ms away.
    for (let i = 0; i < 7; i++) expect(admit.decide(callers.organizationId)).to.equal(null);
    app = undefined;
    await running.stop();
    expect(await hits()).to.equal(12);
  });
});
