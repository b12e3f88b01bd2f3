import { expect } from 'chai';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { listening, spawnService, stopService, type ServiceProcess } from '../../support/service-process';
import { api, apiAt } from '../../support/http-client';
import { aCallerSet } from '../../support/callers';
import { eventsDecided, setIncidentManagement } from '../../support/im-fixtures';
import { testDatabase, testServer } from '../../support/test-server';

/**
 * A second service process on the test database answers event triggers and is killed hard
 * (SIGKILL) the moment its first 202 arrives, with more events in flight. Every event it
 * acknowledged must be stored and decided: the 202 comes only after the intake's commit, and the
 * decider of the test's own process decides what the killed one left in the log.
 */
describe('event ingest durability', function () {
  this.timeout(180_000);
  let service: ServiceProcess | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    if (service) await stopService(service);
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('loses no event it answered 202 to when killed right after', async () => {
    await testServer();
    const callers = await aCallerSet();
    await setIncidentManagement(callers.organizationId, true);
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'im-durability-'));
    service = spawnService({ DATABASE_URL: (await testDatabase()).url, DATA_DIR: dataDir, CHECK_LOCATIONS: 'none' });
    const url = await listening(service);
    const running = service;

    const keys = Array.from({ length: 40 }, (_, i) => `durable-${i}`);
    let killed = false;
    const outcomes = await Promise.all(
      keys.map(async (key) => {
        try {
          const response = await apiAt(url, 'POST', '/api/im/events', {
            token: callers.orgToken,
            body: {
              routing_key: 'r',
              event_action: 'trigger',
              dedup_key: key,
              payload: { summary: key, source: 'test', severity: 'error' },
            },
          });
          if (response.status === 202 && !killed) {
            killed = true;
            running.child.kill('SIGKILL');
          }
          return { key, status: response.status };
        } catch {
          return { key, status: 0 };
        }
      }),
    );
    await running.exited;
    const acknowledged = outcomes.filter((o) => o.status === 202).map((o) => o.key);
    expect(killed).to.equal(true);
    expect(acknowledged.length).to.be.greaterThan(0);
    // Accepted means durable in the intake log; this process's decider decides what the killed one left.
    await eventsDecided(callers.organizationId);

    const stored = (await api('GET', '/api/im/incidents', { token: callers.admin, query: { perPage: '200' } })).body.items.map(
      (i: { dedupKey: string }) => i.dedupKey,
    );
    expect(stored).to.include.members(acknowledged);
  });
});
