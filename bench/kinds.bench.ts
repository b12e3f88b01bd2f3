/**
 * `npm run bench:kinds`: CPU per check of the service's checkers for the monitor kinds of issue 61
 * (udp, redis, postgres, mysql, websocket, grpc, mqtt, snmp) against a bare client of the same
 * protocol doing the same exchange with the same library, in the same process and run, on loopback.
 * Goal per kind: `<kind>.cpuRatioToBareClient` <= 1.5.
 *
 * The checker side is the service's own: the real checker set (`protocolCheckers`) behind `RunCheck`
 * (the deadline, the result), with the real target policy (`ResolvingTargetPolicy`, admitting
 * 127.0.0.0/8 as the engine bench's CHECK_PRIVATE_ALLOWLIST does); every check must come back up.
 * The bare side, per kind, is the library alone with the options that make its wire exchange the
 * checker's, and nothing else (no policy, no deadline, no result):
 *   udp       node:dgram: a socket connected to the peer, one datagram sent, the first reply, closed.
 *   redis     ioredis (ready check and client info off, RESP2, as the checker): connect, AUTH with the
 *             password, PING, disconnect.
 *   postgres  pg.Client: connect (SCRAM login to its database), `SELECT 1`, end.
 *   mysql     mysql2 createConnection (it dials itself): connect (login to `shop`), `SELECT 1`, destroy.
 *   websocket ws (no per-message deflate): upgrade, send "ping", the first message back, terminate.
 *   grpc      grpc-js: a Health client (from grpc-health-check's health.proto, loaded once) on a
 *             fresh channel (its own subchannel pool, so a new connection), one Check, close.
 *   mqtt      mqtt.js connect (MQTT 3.1.1, clean session, the user's login), SUBSCRIBE to the topic,
 *             the retained message on it, end.
 *   snmp      net-snmp: a v2c session, one GET of sysLocation, close.
 * CPU is process.cpuUsage() of this process: the servers run elsewhere (redis-server, mariadbd, an
 * embedded PostgreSQL, mosquitto, snmpd as their own programs; the ws, grpc-js and UDP echo servers
 * in a forked child). Per kind: a warm-up of both sides, then BENCH_ROUNDS (default 5) interleaved
 * rounds (bare, checker, bare, checker, ...) of as many checks as take the bare client
 * BENCH_ROUND_CPU_MS of CPU (default 600; BENCH_N fixes the number), BENCH_CONCURRENCY at a time (default 8); the figure is the median round of the checker over the median round of the
 * bare client. BENCH_KINDS=redis,postgres,... measures those kinds only. Progress on stderr, JSON on
 * stdout; a missed goal exits non-zero; a check that fails, or a server that dies, exits 1 at once.
 * BENCH_PROFILE_DIR=dir writes a CPU profile of each kind's checker alone (one more round) to dir/<kind>.cpuprofile.
 */
import dgram from 'node:dgram';
import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';
import http from 'node:http';
import { fork } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { RunCheck } from '../src/application/checks/run-check';
import { CheckerRegistry } from '../src/application/checks/checker-registry';
import type { ScreenshotStore } from '../src/application/checks/ports';
import type { CheckRequest } from '../src/domain/checks/check-request';
import { protocolCheckers } from '../src/infrastructure/protocols/checker-set';
import { ChromiumBrowser } from '../src/infrastructure/protocols/browser/chromium-browser';
import { ResolvingTargetPolicy } from '../src/infrastructure/network/resolving-target-policy';
import { NodeDnsResolver } from '../src/infrastructure/network/node-dns-resolver';
import { DEFAULT_DNSBL_ZONES } from '../src/infrastructure/protocols/dnsbl/default-zones';
import { startRedisPeer } from '../test/support/peers/redis-peer';
import { startMariadbPeer } from '../test/support/peers/mariadb-peer';
import { aPostgresLogin } from '../test/support/peers/postgres-login';
import { aMosquittoBroker } from '../test/support/peers/mosquitto-broker';
import { anSnmpdAgent } from '../test/support/peers/snmpd-agent';
import { testCertificates } from '../test/support/peers/certificates';
import { testDatabase } from '../test/support/test-server';
import { goal, loadAverage, printVerdict, type Goal } from './support/verdict';

const KINDS = ['udp', 'redis', 'postgres', 'mysql', 'websocket', 'grpc', 'mqtt', 'snmp'] as const;
type Kind = (typeof KINDS)[number];
/** Checks a round: fixed with BENCH_N, else as many as take the bare client BENCH_ROUND_CPU_MS of CPU (at least 100). */
const FIXED_N = process.env.BENCH_N === undefined ? undefined : Number(process.env.BENCH_N);
const ROUND_CPU_MS = Number(process.env.BENCH_ROUND_CPU_MS ?? 600);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const GOAL = 1.5;
/** BENCH_PROFILE_DIR=dir: after a kind's rounds, one more round of its checker alone under the CPU profiler, written to dir/<kind>.cpuprofile. */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
const MQTT_USER = { username: 'probe', password: 'probe-secret' };
const MQTT_TOPIC = 'plant/1/status';
const SNMP_COMMUNITY = 'bench-community';
const SYS_LOCATION = '1.3.6.1.2.1.1.6.0';
const GRPC_SERVICE = 'shop.Checkout';

interface NodePeers {
  udp: number;
  websocket: number;
  grpc: number;
}

const progress = (line: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

if (process.argv[2] === 'peers') void servePeers();
else void main().catch((error: unknown) => fail(error));

function fail(error: unknown): never {
  process.stderr.write(`bench:kinds failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}

/** The forked child: a UDP echo, a ws server answering `pong <message>`, a grpc-js server with the health service. */
async function servePeers(): Promise<void> {
  const { WebSocketServer } = await import('ws');
  const grpc = await import('@grpc/grpc-js');
  const { HealthImplementation } = await import('grpc-health-check');
  const udp = dgram.createSocket('udp4');
  udp.on('message', (message, from) => udp.send(Buffer.concat([Buffer.from('pong '), message]), from.port, from.address));
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  const web = http.createServer();
  new WebSocketServer({ server: web, perMessageDeflate: false }).on('connection', (socket) => {
    socket.on('error', () => undefined);
    socket.on('message', (data) => socket.send(`pong ${String(data)}`));
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', 1024, resolve));
  const server = new grpc.Server();
  new HealthImplementation({ '': 'SERVING', [GRPC_SERVICE]: 'SERVING' }).addToServer(server);
  const grpcPort = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port))),
  );
  const peers: NodePeers = { udp: udp.address().port, websocket: (web.address() as AddressInfo).port, grpc: grpcPort };
  process.send!(peers);
  process.on('disconnect', () => process.exit(0));
}

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  const chosen = (process.env.BENCH_KINDS ?? KINDS.join(','))
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean) as Kind[];
  const unknown = chosen.filter((k) => !KINDS.includes(k));
  if (unknown.length > 0) fail(`unknown kinds in BENCH_KINDS: ${unknown.join(', ')} (known: ${KINDS.join(', ')})`);

  const child = fork(__filename, ['peers'], { execArgv: process.execArgv });
  child.once('exit', (code, signal) => fail(`the ws / grpc / udp peers' process exited (${code ?? signal})`));
  const nodePeers = await new Promise<NodePeers>((resolve) => child.once('message', (m) => resolve(m as NodePeers)));
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    child.removeAllListeners('exit');
    child.disconnect();
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };

  const checks = await kindChecks(chosen, nodePeers, stops);
  const runCheck = serviceRunCheck();
  const figures: Record<string, unknown> = {};
  const goals: Record<string, Goal> = {};
  try {
    for (const kind of chosen) {
      const { bare, request } = checks[kind]!;
      const checker = async () => {
        const result = await runCheck.execute(request);
        if (result.status !== 'up') throw new Error(`${kind} check not up: ${JSON.stringify(result.findings ?? result)}`);
      };
      progress(`${kind}: warming up`);
      await measure(bare, 100);
      await measure(checker, 100);
      const n = FIXED_N ?? Math.max(100, Math.round((ROUND_CPU_MS * 1000) / (await measure(bare, 200))));
      const rounds: { bare: number; checker: number; ratio: number }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const b = await measure(bare, n);
        const c = await measure(checker, n);
        rounds.push({ bare: round1(b), checker: round1(c), ratio: round2(c / b) });
        progress(`${kind}: round ${round + 1}: bare ${b.toFixed(1)} µs, checker ${c.toFixed(1)} µs a check (${(c / b).toFixed(2)}x)`);
      }
      if (PROFILE_DIR) await profileChecker(kind, checker, n);
      const bareMicros = median(rounds.map((r) => r.bare));
      const checkerMicros = median(rounds.map((r) => r.checker));
      const ratio = round2(checkerMicros / bareMicros);
      figures[kind] = {
        checksPerRound: n,
        bareCpuMicrosPerCheck: bareMicros,
        checkerCpuMicrosPerCheck: checkerMicros,
        cpuRatioToBareClient: ratio,
        rounds,
      };
      goals[`${kind}.cpuRatioToBareClient`] = goal(ratio, '<=', GOAL, 'x the bare client');
    }
  } catch (error) {
    await stopAll();
    fail(error);
  }
  await stopAll();
  printVerdict({ rounds: ROUNDS, concurrency: CONCURRENCY, kinds: figures }, goals, loadBefore);
  process.exit();
}

/** The service's checker set behind RunCheck, with the real target policy admitting loopback (as the engine bench's service). */
function serviceRunCheck(): RunCheck {
  const policy = new ResolvingTargetPolicy(new NodeDnsResolver([]), ['127.0.0.0/8']);
  const browserSettings = { executablePath: '/nonexistent/chromium', maxConcurrent: 1, stepWaitMs: 10_000 };
  const noScreenshots: ScreenshotStore = {
    save: () => Promise.reject(new Error('no screenshots in this bench')),
    find: () => Promise.resolve(null),
    purgeBefore: () => Promise.resolve(0),
  };
  const settings = {
    dnsServers: [],
    dnsblZones: DEFAULT_DNSBL_ZONES,
    rdapBootstrapUrl: 'http://127.0.0.1:9/',
    whoisServer: '127.0.0.1',
    heloName: 'bench.example.com',
    extraCa: [testCertificates().ca.cert],
    browser: browserSettings,
    userAgent: 'bench',
  };
  const checkers = protocolCheckers(settings, policy, new ChromiumBrowser(browserSettings, policy), noScreenshots);
  return new RunCheck(new CheckerRegistry(checkers), { now: () => new Date() });
}

/** CPU microseconds per call of `fn`, `n` calls, CONCURRENCY at a time. */
async function measure(fn: () => Promise<void>, n: number): Promise<number> {
  const cpu = process.cpuUsage();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < n) await fn();
    }),
  );
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / n;
}

/** One round of the checker alone under the inspector's CPU profiler (the bare client is not in it). */
async function profileChecker(kind: Kind, checker: () => Promise<void>, n: number): Promise<void> {
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  await measure(checker, n);
  const { profile } = (await post('Profiler.stop')) as { profile: object };
  session.disconnect();
  const file = path.join(PROFILE_DIR!, `${kind}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  progress(`${kind}: the checker's CPU profile in ${file}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;

interface KindCheck {
  bare: () => Promise<void>;
  request: CheckRequest;
}

/** Starts each chosen kind's server and answers its bare exchange and the monitor's check request for it. */
async function kindChecks(chosen: Kind[], nodePeers: NodePeers, stops: (() => Promise<void>)[]): Promise<Partial<Record<Kind, KindCheck>>> {
  const out: Partial<Record<Kind, KindCheck>> = {};
  const host = '127.0.0.1';
  for (const kind of chosen) {
    progress(`${kind}: starting its server`);
    if (kind === 'udp') {
      const port = nodePeers.udp;
      out.udp = {
        request: { kind: 'udp', host, port, payload: 'ping\n', expectedReply: 'pong', timeoutSeconds: 2 },
        bare: () =>
          new Promise<void>((resolve, reject) => {
            const socket = dgram.createSocket('udp4');
            socket.once('error', reject);
            socket.once('message', () => socket.close(() => resolve()));
            socket.connect(port, host, () => socket.send(Buffer.from('ping\n')));
          }),
      };
    } else if (kind === 'redis') {
      const redis = await startRedisPeer();
      stops.push(() => redis.stop());
      const { Redis } = await import('ioredis');
      out.redis = {
        request: {
          kind: 'redis',
          host,
          port: redis.port,
          ssl: 'disable',
          credentials: { username: 'default', password: redis.password },
          command: 'PING',
          expectedReply: null,
          timeoutSeconds: 2,
        },
        bare: async () => {
          const client = new Redis({
            host,
            port: redis.port,
            password: redis.password,
            lazyConnect: true,
            enableReadyCheck: false,
            disableClientInfo: true,
            protocol: 2,
            retryStrategy: () => null,
          });
          await client.connect();
          await client.ping();
          client.disconnect();
        },
      };
    } else if (kind === 'postgres') {
      const login = await aPostgresLogin();
      stops.push(async () => {
        await login.drop();
        await (await testDatabase()).dispose();
      });
      const { default: pg } = await import('pg');
      const credentials = { username: login.username, password: login.password };
      out.postgres = {
        request: {
          kind: 'postgres',
          host,
          port: login.port,
          ssl: 'disable',
          credentials,
          database: login.database,
          query: 'SELECT 1',
          expectedResult: '1',
          timeoutSeconds: 5,
        },
        bare: async () => {
          const client = new pg.Client({
            host,
            port: login.port,
            user: login.username,
            password: login.password,
            database: login.database,
          });
          await client.connect();
          await client.query('SELECT 1');
          await client.end();
        },
      };
    } else if (kind === 'mysql') {
      const mariadb = await startMariadbPeer({ tls: false });
      stops.push(() => mariadb.stop());
      const mysql = await import('mysql2');
      out.mysql = {
        request: {
          kind: 'mysql',
          host,
          port: mariadb.port,
          ssl: 'disable',
          credentials: mariadb.user,
          database: 'shop',
          query: 'SELECT 1',
          expectedResult: '1',
          timeoutSeconds: 5,
        },
        bare: () =>
          new Promise<void>((resolve, reject) => {
            const connection = mysql.createConnection({
              host,
              port: mariadb.port,
              user: mariadb.user.username,
              password: mariadb.user.password,
              database: 'shop',
            });
            connection.once('error', reject);
            connection.query('SELECT 1', (error) => {
              connection.destroy();
              if (error) reject(error);
              else resolve();
            });
          }),
      };
    } else if (kind === 'websocket') {
      const { default: WebSocket } = await import('ws');
      const port = nodePeers.websocket;
      out.websocket = {
        request: {
          kind: 'websocket',
          host,
          port,
          tls: false,
          path: '/socket',
          message: 'ping',
          expectedMessage: 'pong ping',
          timeoutSeconds: 2,
        },
        bare: () =>
          new Promise<void>((resolve, reject) => {
            const ws = new WebSocket(`ws://${host}:${port}/socket`, { perMessageDeflate: false });
            ws.once('error', reject);
            ws.once('open', () => ws.send('ping'));
            ws.once('message', () => {
              ws.terminate();
              resolve();
            });
          }),
      };
    } else if (kind === 'grpc') {
      const port = nodePeers.grpc;
      const Health = await grpcHealthClient();
      const grpc = await import('@grpc/grpc-js');
      out.grpc = {
        request: { kind: 'grpc', host, port, tls: false, service: GRPC_SERVICE, timeoutSeconds: 2 },
        bare: () =>
          new Promise<void>((resolve, reject) => {
            const client = new Health(`ipv4:${host}:${port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
            client.check({ service: GRPC_SERVICE }, (error: Error | null, response?: { status: string }) => {
              client.close();
              if (error) reject(error);
              else if (response?.status !== 'SERVING') reject(new Error(`health ${response?.status}`));
              else resolve();
            });
          }),
      };
    } else if (kind === 'mqtt') {
      const broker = await aMosquittoBroker({ [MQTT_USER.username]: MQTT_USER.password }, ['plant/#'], testCertificates().valid);
      stops.push(() => broker.stop());
      const mqtt = await import('mqtt');
      const retained = await mqtt.connectAsync({ host, port: broker.port, ...MQTT_USER, reconnectPeriod: 0 });
      await retained.publishAsync(MQTT_TOPIC, 'online since 06:00', { retain: true, qos: 1 });
      await retained.endAsync();
      out.mqtt = {
        request: {
          kind: 'mqtt',
          host,
          port: broker.port,
          tls: false,
          credentials: MQTT_USER,
          topic: MQTT_TOPIC,
          expectedMessage: 'online',
          timeoutSeconds: 2,
        },
        bare: () =>
          new Promise<void>((resolve, reject) => {
            const client = mqtt.connect({
              host,
              port: broker.port,
              protocolVersion: 4,
              clean: true,
              reconnectPeriod: 0,
              keepalive: 0,
              ...MQTT_USER,
            });
            client.once('error', reject);
            client.once('connect', () => client.subscribe(MQTT_TOPIC, { qos: 0 }, (error) => error && reject(error)));
            client.once('message', () => client.end(false, {}, () => resolve()));
          }),
      };
    } else if (kind === 'snmp') {
      const agent = await anSnmpdAgent({ community: SNMP_COMMUNITY, users: [], location: 'bench rack 1' });
      stops.push(() => agent.stop());
      const { default: snmp } = await import('net-snmp');
      out.snmp = {
        request: {
          kind: 'snmp',
          host,
          port: agent.port,
          version: 'v2c',
          community: SNMP_COMMUNITY,
          user: null,
          oid: SYS_LOCATION,
          expected: null,
          timeoutSeconds: 2,
        },
        bare: () =>
          new Promise<void>((resolve, reject) => {
            const session = snmp.createSession(host, SNMP_COMMUNITY, {
              port: agent.port,
              retries: 0,
              timeout: 2000,
              version: snmp.Version2c,
            });
            session.on('error', reject);
            session.get([SYS_LOCATION], (error) => {
              session.close();
              if (error) reject(error);
              else resolve();
            });
          }),
      };
    }
  }
  return out;
}

type HealthClient = {
  check(request: { service: string }, callback: (error: Error | null, response?: { status: string }) => void): void;
  close(): void;
};

/** grpc-health-check's Health client from its health.proto, loaded once (as the checker loads it once). */
async function grpcHealthClient(): Promise<new (address: string, credentials: unknown, options: object) => HealthClient> {
  const [grpc, loader, { protoPath }] = await Promise.all([
    import('@grpc/grpc-js'),
    import('@grpc/proto-loader'),
    import('grpc-health-check'),
  ]);
  const definition = loader.loadSync(protoPath, { keepCase: true, enums: String, defaults: true });
  const health = grpc.loadPackageDefinition(definition) as unknown as {
    grpc: { health: { v1: { Health: new (address: string, credentials: unknown, options: object) => HealthClient } } };
  };
  return health.grpc.health.v1.Health;
}
