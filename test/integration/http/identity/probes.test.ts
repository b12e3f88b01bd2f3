import { expect } from 'chai';
import pino from 'pino';
import { startApplication, type RunningApplication } from '../../../../src/main/application';
import { SqlSchemaProbe } from '../../../../src/infrastructure/identity/sql-schema-probe';
import { migrationsList } from '../../../../src/infrastructure/persistence/migrations';
import { api, apiAt, expectError, type ApiResponse } from '../../../support/http-client';
import { testConfig, testDatabase, testServer } from '../../../support/test-server';
import { SwitchableTcpProxy } from '../../../support/peers/switchable-tcp-proxy';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const get = (base: string, path: string): Promise<ApiResponse> => apiAt(base, 'GET', path);

describe('liveness and readiness probes', () => {
  it('/livez answers 200 {status: ok} without credentials, outside /api', async () => {
    const response = await api('GET', '/livez');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ status: 'ok' });
  });

  it('/readyz answers 200 {status: ready} once the database answers and every migration is applied', async () => {
    const response = await api('GET', '/readyz');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ status: 'ready' });
  });

  it("are described in the OpenAPI document, public, with readyz's 503 codes", async () => {
    const { body: document } = await api('GET', '/openapi.json');
    expect(document.paths['/livez'].get.security).to.deep.equal([]);
    expect(document.paths['/readyz'].get.security).to.deep.equal([]);
    expect(document.paths['/readyz'].get.responses['503'].description).to.include('databaseUnavailable').and.include('migrationsPending');
  });

  it('counts migrations of this build that the database lacks', async () => {
    const { database } = await testServer();
    const names = database.migrationNames;
    expect(names).to.deep.equal(migrationsList.map((m) => m.name));
    expect(await new SqlSchemaProbe(database.sql, names).pendingMigrations()).to.equal(0);
    expect(await new SqlSchemaProbe(database.sql, [...names, 'Migration29991231000000Future']).pendingMigrations()).to.equal(1);
  });

  it('/readyz answers 503 migrationsPending (data.pending) while the database lacks a migration of this build, and 200 once it has it', async () => {
    const { database } = await testServer();
    const newest = database.migrationNames.at(-1)!;
    // The database as one a step behind this build: its newest migration not recorded as applied.
    await database.sql.query(sql`UPDATE mikro_orm_migrations SET name = ${`${newest}-hidden`} WHERE name = ${newest}`);
    try {
      const behind = await api('GET', '/readyz');
      expectError(behind, 503, 'migrationsPending');
      expect(behind.body.data).to.deep.equal({ code: 'migrationsPending', pending: 1 });
    } finally {
      await database.sql.query(sql`UPDATE mikro_orm_migrations SET name = ${newest} WHERE name = ${`${newest}-hidden`}`);
    }
    expect((await api('GET', '/readyz')).status).to.equal(200);
  });

  describe('while the database is unreachable', function () {
    this.timeout(60_000);
    let proxy: SwitchableTcpProxy;
    let app: RunningApplication;

    before(async () => {
      // The service reaches the test database through a proxy the test can cut.
      const url = new URL((await testDatabase()).url);
      proxy = await SwitchableTcpProxy.start({ host: '127.0.0.1', port: Number(url.port) });
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
      app = await startApplication(
        { ...testConfig(), databaseUrl: url.toString() },
        { jobs: false, checkWorker: false, logger: pino({ level: 'silent' }) },
      );
    });
    after(async () => {
      proxy?.set('forward');
      await app?.stop();
      await proxy?.close();
    });

    it('readyz answers 503 databaseUnavailable, livez still 200, and readyz is 200 again once the database answers, without a restart', async () => {
      expect((await get(app.url, '/readyz')).status).to.equal(200);

      proxy.set('refuse');
      const down = await get(app.url, '/readyz');
      expectError(down, 503, 'databaseUnavailable');
      expect(down.body).to.deep.equal({
        error: true,
        url: '/readyz',
        statusCode: 503,
        statusMessage: 'The database does not answer',
        message: 'The database does not answer',
        data: { code: 'databaseUnavailable' },
      });
      expect((await get(app.url, '/livez')).status, 'the process itself is fine').to.equal(200);

      proxy.set('forward');
      expect(await get(app.url, '/readyz').then((r) => [r.status, r.body])).to.deep.equal([200, { status: 'ready' }]);
    });

    it('readyz answers 503 within its 2 s bound when the database accepts connections but never answers', async () => {
      proxy.set('hang');
      try {
        const started = Date.now();
        expectError(await get(app.url, '/readyz'), 503, 'databaseUnavailable');
        expect(Date.now() - started).to.be.below(10_000);
      } finally {
        proxy.set('forward');
      }
      expect((await get(app.url, '/readyz')).status).to.equal(200);
    });
  });
});
