import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { io, type Socket } from 'socket.io-client';
import { api } from '../../../support/http-client';
import { wsm, type WsmFiles } from '../../../support/wsm';
import { anOrganizationForImport, importApplyTwice } from '../../../support/wsm-import';

/**
 * wsm import against a real Uptime Kuma 2.5 (not a stand-in): it runs from its own source on
 * loopback with a fresh SQLite data directory, is set up and given monitors and notifications through
 * its Socket.IO API as its front end does, and is then imported from the running instance (--url) and,
 * stopped, from its kuma.db (--file); both must describe the same service.
 *
 * Run with UPTIME_KUMA_DIR pointing at an Uptime Kuma 2.5.x source tree whose server dependencies are
 * installed. From a snapshot of the louislam/uptime-kuma repository (tag 2.5.x):
 *   git archive HEAD | tar -x -C /tmp/kuma && cd /tmp/kuma
 *   npm ci --omit=dev --ignore-scripts
 *   (cd node_modules/@louislam/sqlite3 && npx node-pre-gyp install --build-from-source --nodedir=/usr)
 *   mkdir -p dist && echo '<!doctype html>' > dist/index.html   # its front end is not needed, only its Socket.IO API
 *   UPTIME_KUMA_DIR=/tmp/kuma npx mocha test/integration/http/as-code/wsm-import-kuma-real.test.ts
 * (--nodedir=/usr uses Debian's Node headers, so nothing is downloaded.)
 */
const KUMA = process.env.UPTIME_KUMA_DIR;
const LOGIN = { username: 'admin', password: 'Kuma-Import-Pass-2026!' };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startKuma(dataDir: string): Promise<{ url: string; child: ChildProcess; log: string[] }> {
  const port = await freePort();
  const log: string[] = [];
  const child = spawn(process.execPath, ['server/server.js', `--port=${port}`, '--host=127.0.0.1', `--data-dir=${dataDir}`], {
    cwd: KUMA,
    env: { ...process.env, UPTIME_KUMA_DB_TYPE: 'sqlite', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => log.push(chunk.toString());
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 500) {
    if (child.exitCode !== null) throw new Error(`Uptime Kuma exited:\n${log.join('')}`);
    if (waited > 120_000) throw new Error(`Uptime Kuma did not listen within 120 s:\n${log.join('')}`);
    // Its migration step listens first on the same port; the server proper says so as SERVER.
    if (/SERVER[^\n]*Listening on/.test(log.join(''))) return { url, child, log };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

async function ack<T = { ok: boolean; msg?: string; id?: number; monitorID?: number }>(socket: Socket, event: string, ...args: unknown[]) {
  const answer = (await socket
    .timeout(30_000)
    .emitWithAck(event, ...args)
    .catch((error: Error) => {
      throw new Error(`${event}: ${error.message}`);
    })) as T & { ok: boolean; msg?: string };
  expect(answer.ok, `${event}: ${answer.msg}`).to.equal(true);
  return answer;
}

/** A monitor as Uptime Kuma's front end sends it (the fields its add handler reads), paused so it checks nothing. */
const monitor = (fields: Record<string, unknown>) => ({
  interval: 120,
  retryInterval: 60,
  maxretries: 1,
  timeout: 24,
  active: false,
  accepted_statuscodes: ['200-299'],
  notificationIDList: {},
  kafkaProducerBrokers: [],
  kafkaProducerSaslOptions: {},
  conditions: [],
  rabbitmqNodes: [],
  ...fields,
});

// Without UPTIME_KUMA_DIR nothing is declared (pending tests are refused by the suite): the line at the end says how.
if (KUMA)
  describe('wsm import against a real Uptime Kuma 2.5', function () {
    this.timeout(300_000);
    let dataDir: string;

    before(() => (dataDir = mkdtempSync(join(tmpdir(), 'kuma-'))));
    after(() => rmSync(dataDir, { recursive: true, force: true }));

    it('imports a running instance and then its database file to the same service', async () => {
      const { token, customer } = await anOrganizationForImport('wsm-import-kuma-real');
      const kuma = await startKuma(dataDir);
      const env: Record<string, string> = { UPTIME_KUMA_USERNAME: LOGIN.username, UPTIME_KUMA_PASSWORD: LOGIN.password };
      try {
        const socket = io(kuma.url, { transports: ['websocket'], reconnection: false });
        // Its handlers are added after it has sent `info` (and `setup` while no user exists), as its front end waits for.
        await new Promise((resolve) => socket.once('setup', resolve));
        try {
          await ack(socket, 'setup', LOGIN.username, LOGIN.password);
          await ack(socket, 'login', { ...LOGIN, token: '' });
          const chat = await ack(
            socket,
            'addNotification',
            { name: 'Ops chat', type: 'mattermost', mattermostWebhookUrl: 'https://mm.example.com/hooks/abc', isDefault: false },
            null,
          );
          await ack(
            socket,
            'addNotification',
            {
              name: 'Pager',
              type: 'Opsgenie',
              opsgenieApiKey: '3f2a9c1e-7b4d-4e8a-9c2b-1d5e6f7a8b9c',
              opsgenieRegion: 'eu',
              isDefault: false,
            },
            null,
          );
          await ack(
            socket,
            'add',
            monitor({
              name: 'Shop',
              type: 'keyword',
              url: 'https://www.monitor-fixture.com/',
              keyword: 'Welcome',
              method: 'GET',
              notificationIDList: { [chat.id!]: true },
            }),
          );
          await ack(socket, 'add', monitor({ name: 'Mail', type: 'port', hostname: 'mail.monitor-fixture.com', port: 587 }));
          await ack(
            socket,
            'add',
            monitor({
              name: 'Orders DB',
              type: 'postgres',
              databaseConnectionString: 'postgres://shop:pw@origin.monitor-fixture.com:5433/orders',
              databaseQuery: 'SELECT 1',
            }),
          );
          await ack(
            socket,
            'add',
            monitor({ name: 'Cache', type: 'redis', databaseConnectionString: 'redis://:pw@public.monitor-fixture.com:6379' }),
          );
          await ack(
            socket,
            'add',
            monitor({
              name: 'Broker',
              type: 'mqtt',
              hostname: 'www.monitor-fixture.com',
              port: 1883,
              mqttTopic: 'plant/1',
              mqttSuccessMessage: 'online',
              mqttUsername: 'u',
              mqttPassword: 'p',
            }),
          );
          await ack(
            socket,
            'add',
            monitor({
              name: 'Switch',
              type: 'snmp',
              hostname: 'mail.monitor-fixture.com',
              port: 161,
              snmpVersion: '2c',
              snmpOid: '1.3.6.1.2.1.1.3.0',
              radiusPassword: 'community',
              jsonPathOperator: '>',
              expectedValue: '100',
              jsonPath: '$',
            }),
          );
          await ack(socket, 'add', monitor({ name: 'Game', type: 'gamedig', hostname: 'game.example.com', port: 27015, game: 'csgo' }));
        } finally {
          socket.close();
        }

        const live = await importApplyTwice(['uptime-kuma', '--url', kuma.url, '--customer', customer], token, { ...env, ...SECRETS });
        expect(live.stderr).to.include("monitor Game (7, gamedig): Uptime Kuma's gamedig monitors have no kind here");
        const kinds = async (kind: string) =>
          (await api('GET', `/api/monitors/${kind}`, { token })).body.items as Record<string, unknown>[];
        expect((await kinds('postgres'))[0]).to.include({ key: 'uptime-kuma/3', hostname: 'origin.monitor-fixture.com', port: 5433 });
        expect((await kinds('redis'))[0]).to.include({ key: 'uptime-kuma/4', hostname: 'public.monitor-fixture.com' });
        expect((await kinds('mqtt'))[0]).to.include({ key: 'uptime-kuma/5', hostname: 'www.monitor-fixture.com', port: 1883 });
        expect((await kinds('snmp'))[0]).to.include({ key: 'uptime-kuma/6', hostname: 'mail.monitor-fixture.com' });
        expect((await kinds('tcp'))[0]).to.include({ key: 'uptime-kuma/2', port: 587 });
        const channels = (await api('GET', '/api/notification-channels', { token })).body.items as Record<string, unknown>[];
        expect(channels.map((c) => c.type).sort()).to.deep.equal(['mattermost', 'opsgenie']);
      } catch (error) {
        (error as Error).message += `\nUptime Kuma's log:\n${kuma.log.join('').slice(-4000)}`;
        throw error;
      } finally {
        await stop(kuma.child);
      }

      // Stopped, its file describes the same monitors: a plan of the file's import changes nothing.
      const files: WsmFiles = new Map();
      const fromFile = await wsm(
        ['import', 'uptime-kuma', '--file', join(dataDir, 'kuma.db'), '--customer', customer, '--out', 'file.yaml'],
        { token, files, env },
      );
      expect(fromFile.code, fromFile.stderr).to.equal(0);
      const plan = await wsm(['plan', '--file', 'file.yaml', '--detailed-exitcode'], { token, files, env: { ...env, ...SECRETS } });
      expect(plan, plan.stdout + plan.stderr).to.deep.include({ code: 0 });
    });
  });

/** The values the imported file's references name (the monitors' logins, the channels' secrets). */
const SECRETS: Record<string, string> = {
  WSM_UPTIME_KUMA_3_USERNAME: 'shop',
  WSM_UPTIME_KUMA_3_PASSWORD: 'pw',
  WSM_UPTIME_KUMA_4_PASSWORD: 'pw',
  WSM_UPTIME_KUMA_5_USERNAME: 'u',
  WSM_UPTIME_KUMA_5_PASSWORD: 'p',
  WSM_UPTIME_KUMA_6_PASSWORD: 'community',
  WSM_UPTIME_KUMA_NOTIFICATION_1_URL: 'https://mm.example.com/hooks/abc',
  WSM_UPTIME_KUMA_NOTIFICATION_2_API_KEY: '3f2a9c1e-7b4d-4e8a-9c2b-1d5e6f7a8b9c',
};

if (!KUMA)
  console.log('wsm-import-kuma-real: set UPTIME_KUMA_DIR to an Uptime Kuma 2.5 source tree (see the file for how) to import a real one');
