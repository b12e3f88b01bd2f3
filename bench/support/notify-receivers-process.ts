/**
 * Loopback webhook receivers for bench/notify.bench.ts, in a process of their own (their CPU is
 * neither the service's nor the bare client's): `count` servers, each answering 200 at once and
 * noting every arrival (its X-Webhook-Id, event, incident and time), and a loopback DNS server where
 * receiver i is `hooks-<i>.notify-bench.com` (A 127.0.0.1), so channels name public-looking hosts
 * that the real target policy resolves and admits (CHECK_PRIVATE_ALLOWLIST=127.0.0.0/8). IPC:
 *   -> {ports, hosts, dnsServer}
 *   {type: 'arrivals'} -> {arrivals: [[webhookId, event, incidentIds, atMs, stage, path]]}   everything since the last reset (a digest lists
 *   several incidents; `stage` is a storm message's data.stage, else null; `path` names the channel: /customers/<id>)
 *   {type: 'reset'}
 *   {type: 'hold', ms} -> {}   each answer from then on held ms after its arrival is noted (0: at once)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestDns } from '../../test/support/test-dns';

const BACKLOG = 4096;
const count = Number(process.argv[2] ?? 100);
let arrivals: Array<[string, string, string[], number, string | null, string]> = [];
/** How long each answer is held after its arrival is noted (`hold`): deliveries sent but not yet settled. */
let holdMs = 0;

const server = () =>
  http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        event: string;
        incident: { id: string } | null;
        data?: { incidents?: Array<{ incidentId?: string }>; stage?: string };
      };
      // A digest lists the incidents it tells of.
      const incidents = body.incident
        ? [body.incident.id]
        : (body.data?.incidents ?? []).map((i) => i.incidentId).filter((id): id is string => Boolean(id));
      arrivals.push([String(req.headers['x-webhook-id']), body.event, incidents, at, body.data?.stage ?? null, String(req.url)]);
      const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (holdMs > 0) setTimeout(answer, holdMs);
      else answer();
    });
  });

async function main() {
  const ports = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<number>((resolve) => {
          const s = server().listen(0, '127.0.0.1', BACKLOG, () => resolve((s.address() as AddressInfo).port));
        }),
    ),
  );
  const hosts = ports.map((_port, i) => `hooks-${i}.notify-bench.com`);
  const dns = await startTestDns({});
  for (const host of hosts) dns.set(host, { A: ['127.0.0.1'] });
  process.on('message', (m: { type: string; id: number }) => {
    if (m.type === 'arrivals') process.send!({ id: m.id, arrivals });
    if (m.type === 'hold') {
      holdMs = Number((m as { ms?: number }).ms ?? 0);
      process.send!({ id: m.id });
    }
    if (m.type === 'reset') {
      arrivals = [];
      process.send!({ id: m.id });
    }
  });
  process.send!({ type: 'ready', ports, hosts, dnsServer: dns.server });
}

void main();
