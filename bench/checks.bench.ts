/**
 * CPU per check of the check engine versus bare Node baselines measured in the same run, on loopback.
 * Peers run in a child process so process.cpuUsage() counts the checking side only.
 *   npm run bench:checks            (BENCH_N=3000 checks per HTTP/TCP round, a third of that for HTTPS)
 * Targets (issue 5): HTTP <= 2x a bare node:http new-connection GET, TCP <= 3x a bare connect,
 * HTTPS with a new handshake each check <= 1.2x a bare TLS handshake with a shared secure context (a chain
 * verified before is judged from its verdict: HTTPS° shows a check that verifies its chain, as a first one does).
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { fork } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { RunCheck } from '../src/application/checks/run-check';
import { CheckerRegistry } from '../src/application/checks/checker-registry';
import { NodeHttpChecker } from '../src/infrastructure/protocols/http/node-http-checker';
import { NetTcpChecker } from '../src/infrastructure/protocols/tcp/net-tcp-checker';
import { SharedTlsContext } from '../src/infrastructure/protocols/shared/tls-context';
import { LoopbackTargetPolicy } from '../test/support/loopback-target-policy';
import { testCertificates } from '../test/support/peers/certificates';
import { anHttpCheck, TEST_USER_AGENT as BENCH_USER_AGENT } from '../test/support/check-requests';

interface Ports {
  http: number;
  https: number;
  tcp: number;
}

if (process.argv[2] === 'peers') {
  const certs = testCertificates();
  const body = 'x'.repeat(1024);
  const h = http.createServer((_req, res) => res.end(body));
  const s = https.createServer({ key: certs.valid.key, cert: certs.valid.cert }, (_req, res) => res.end(body));
  const t = net.createServer((socket) => socket.end());
  const port = (server: net.Server) => (server.address() as AddressInfo).port;
  void Promise.all([h, s, t].map((server) => new Promise<void>((r) => server.listen(0, '127.0.0.1', 1024, r)))).then(() => {
    process.send!({ http: port(h), https: port(s), tcp: port(t), ca: certs.ca.cert });
  });
} else {
  const child = fork(__filename, ['peers'], { execArgv: process.execArgv });
  child.once('message', (message: Ports & { ca: string }) => void main(message).finally(() => child.kill()));
}

async function main(ports: Ports & { ca: string }): Promise<void> {
  const N = Number(process.env.BENCH_N ?? 3000);
  const CONCURRENCY = 16;
  const tlsContext = new SharedTlsContext([ports.ca]);
  const policy = new LoopbackTargetPolicy();
  const runCheck = new RunCheck(
    new CheckerRegistry([new NodeHttpChecker(policy, tlsContext, BENCH_USER_AGENT), new NetTcpChecker(policy)]),
    { now: () => new Date() },
  );
  // Remembers no verdict: every check verifies and decodes its chain, as the first check of a chain does.
  const coldTls = new SharedTlsContext([ports.ca], { capacity: 0 });
  const coldRunCheck = new RunCheck(new CheckerRegistry([new NodeHttpChecker(policy, coldTls, BENCH_USER_AGENT)]), {
    now: () => new Date(),
  });
  const httpRequest = anHttpCheck(`http://127.0.0.1:${ports.http}/`, { assertions: { expectedStatusCodes: ['2xx'] } });
  // The certificate names localhost; the bare baselines connect to 127.0.0.1 with that SNI, so the
  // check does the same (connectHost) instead of resolving the name on every check.
  const httpsRequest = anHttpCheck(`https://localhost:${ports.https}/`, {
    connectTo: { host: '127.0.0.1', port: ports.https },
    assertions: { expectedStatusCodes: ['2xx'], ssl: { noticeDays: 14 } },
  });
  const tcpRequest = { kind: 'tcp' as const, host: '127.0.0.1', port: ports.tcp, timeoutSeconds: 5 };
  const secureContext = tls.createSecureContext({ ca: ports.ca });

  const bareHttp = () =>
    new Promise<void>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: ports.http, path: '/', agent: false }, (res) => {
          res.resume();
          res.once('end', resolve);
        })
        .once('error', reject);
    });
  const bareTcp = () =>
    new Promise<void>((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port: ports.tcp }, () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', reject);
    });
  const bareTls = () =>
    new Promise<void>((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port: ports.https, servername: 'localhost', secureContext }, () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', reject);
    });
  /** For context: node:https's own new-connection GET with the same shared context. */
  const bareHttpsGet = () =>
    new Promise<void>((resolve, reject) => {
      https
        .get(
          { host: '127.0.0.1', port: ports.https, servername: 'localhost', path: '/', agent: false, secureContext } as https.RequestOptions,
          (res) => {
            res.resume();
            res.once('end', resolve);
          },
        )
        .once('error', reject);
    });
  const ours =
    (request: Parameters<RunCheck['execute']>[0], run = runCheck) =>
    async () => {
      const result = await run.execute(request);
      if (result.status !== 'up') throw new Error(`check not up: ${JSON.stringify(result.reason)}`);
    };

  async function measure(fn: () => Promise<void>, n: number): Promise<{ us: number; rate: number }> {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < n) await fn();
      }),
    );
    const used = process.cpuUsage(cpu);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    return { us: (used.user + used.system) / n, rate: n / seconds };
  }

  /** Warm both up, then alternate rounds and keep each side's best (least disturbed by neighbours). */
  async function compare(name: string, bare: () => Promise<void>, mine: () => Promise<void>, n: number, target: number) {
    await measure(bare, Math.ceil(n / 5));
    await measure(mine, Math.ceil(n / 5));
    const b: { us: number; rate: number }[] = [];
    const m: { us: number; rate: number }[] = [];
    for (let round = 0; round < 3; round++) {
      b.push(await measure(bare, n));
      m.push(await measure(mine, n));
    }
    const best = (xs: { us: number; rate: number }[]) => xs.reduce((a, x) => (x.us < a.us ? x : a));
    const [bb, mm] = [best(b), best(m)];
    const ratio = mm.us / bb.us;
    console.log(
      `${name.padEnd(6)} bare ${bb.us.toFixed(1).padStart(7)} us/check ${bb.rate.toFixed(0).padStart(6)}/s | engine ${mm.us.toFixed(1).padStart(7)} us/check ${mm.rate.toFixed(0).padStart(6)}/s | ratio ${ratio.toFixed(2)} (target <= ${target}) ${ratio <= target ? 'OK' : 'OVER'}`,
    );
  }

  await compare('HTTP', bareHttp, ours(httpRequest), N, 2);
  await compare('TCP', bareTcp, ours(tcpRequest), N, 3);
  await compare('HTTPS', bareTls, ours(httpsRequest), Math.ceil(N / 3), 1.2);
  await compare('HTTPS*', bareHttpsGet, ours(httpsRequest), Math.ceil(N / 3), 1.2);
  await compare('HTTPS°', bareTls, ours(httpsRequest, coldRunCheck), Math.ceil(N / 3), 1.2);
  console.log('HTTPS* compares with a bare node:https new-connection GET (handshake plus one request), for context.');
  console.log(
    `HTTPS° verifies and decodes the chain on every check, as the first check of a chain does (then once an hour); verdicts reused in the HTTPS rows: ${JSON.stringify(tlsContext.verifiedChains.stats)}.`,
  );
}
