import { expect } from 'chai';
import pino from 'pino';
import { z } from 'zod';
import { token } from '../../../src/application/shared/token';
import type { SqlRunner } from '../../../src/infrastructure/persistence/database';
import { sql } from '../../../src/infrastructure/persistence/sql';
import { ApiRouter } from '../../../src/interfaces/http/shared/api-router';
import { defineRouter } from '../../../src/interfaces/http/shared/router-deps';
import { startApplication, type RunningApplication } from '../../../src/main/application';
import { CONTEXTS } from '../../../src/main/contexts';
import { bindings } from '../../../src/main/modules/bindings';
import type { ContextModule } from '../../../src/main/modules/context-module';
import { SQL } from '../../../src/main/tokens';
import { apiAt } from '../../support/http-client';
import { testConfig, testDatabase } from '../../support/test-server';

/** A context's port: greetings read from PostgreSQL through the shared SQL handle the platform binds. */
class Greeter {
  ticks = 0;
  constructor(private readonly sql: SqlRunner) {}
  async word(): Promise<string> {
    return (await this.sql.query<{ word: string }>(sql`SELECT 'hello' AS word`))[0]!.word;
  }
}
const GREETER = token<Greeter>('TestGreeter');

/**
 * A context made only of its module, as a new one is: a binding, a router, a worker and a closer.
 * Adding it to the list of contexts is all the host needs to wire, mount, start and stop it.
 */
function greetingsContext(events: string[]): ContextModule {
  return {
    name: 'greetings',
    bindings: bindings(({ single }) => single(GREETER, (c) => new Greeter(c.get(SQL)))),
    routers: [
      defineRouter(
        { greeter: GREETER },
        (deps, use) =>
          new ApiRouter(deps).public({
            method: 'get',
            path: '/greetings-test',
            operationId: 'getTestGreeting',
            tags: ['Health'],
            summary: 'A test context greets',
            description: 'Answers a word read from PostgreSQL and how often the context worker ticked.',
            response: z.object({ word: z.string(), ticks: z.number() }),
            handler: async () => ({ word: await use.greeter.word(), ticks: use.greeter.ticks }),
          }).router,
      ),
    ],
    workers: [
      {
        name: 'greetings ticker',
        start: ({ get }) => {
          const greeter = get(GREETER);
          greeter.ticks++;
          const timer = setInterval(() => greeter.ticks++, 10);
          events.push('worker started');
          return {
            stop: async () => {
              clearInterval(timer);
              events.push(`worker stopped after ${greeter.ticks > 0 ? 'ticking' : 'nothing'}`);
            },
          };
        },
      },
    ],
    closers: [{ name: 'greetings', close: (get) => void events.push(`closed with ${typeof get(GREETER).word}`) }],
  };
}

describe('a context added to the list of contexts (its module and one line)', function () {
  this.timeout(60_000);
  let app: RunningApplication | undefined;
  afterEach(async () => {
    await app?.stop();
    app = undefined;
  });

  it('is bound, mounted and documented, its worker started with the host and stopped before its closer closes', async () => {
    const events: string[] = [];
    app = await startApplication(
      { ...testConfig(), databaseUrl: (await testDatabase()).url },
      {
        contexts: [...CONTEXTS, greetingsContext(events)],
        jobs: false,
        checkWorker: false,
        notificationWorker: false,
        logger: pino({ level: 'silent' }),
      },
    );
    expect(events).to.deep.equal(['worker started']);
    const greeting = await apiAt(app.url, 'GET', '/greetings-test');
    expect(greeting.status).to.equal(200);
    expect(greeting.body.word).to.equal('hello');
    expect(greeting.body.ticks).to.be.at.least(1);
    const description = await apiAt(app.url, 'GET', '/openapi.json');
    expect(description.body.paths['/greetings-test'].get.operationId).to.equal('getTestGreeting');
    const running = app;
    app = undefined;
    await running.stop();
    expect(events).to.deep.equal(['worker started', 'worker stopped after ticking', 'closed with function']);
  });

  it('is not part of the service unless listed', async () => {
    app = await startApplication(
      { ...testConfig(), databaseUrl: (await testDatabase()).url },
      { jobs: false, checkWorker: false, notificationWorker: false, logger: pino({ level: 'silent' }) },
    );
    expect((await apiAt(app.url, 'GET', '/greetings-test')).status).to.equal(404);
  });
});
