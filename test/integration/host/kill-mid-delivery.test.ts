import { expect } from 'chai';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { apiAt } from '../../support/http-client';
import { uniqueEmail } from '../../support/builders';
import { testDatabase, testDnsServer } from '../../support/test-server';
import { waitFor } from '../../support/wait-for';
import { listening, spawnService, stopService, type ServiceProcess } from '../../support/service-process';

const HOOK_HOST = 'hooks.kill-fixture.com';

interface Arrival {
  webhookId: string;
  signature: string;
  body: string;
}

/**
 * A webhook receiver that holds its answer while `holding` is true (the request arrived, no answer
 * went back), as a slow receiver does when the sending process dies.
 */
class HoldingReceiver {
  readonly arrivals: Arrival[] = [];
  holding = true;
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      this.arrivals.push({
        webhookId: String(req.headers['x-webhook-id']),
        signature: String(req.headers['x-webhook-signature']),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (!this.holding) res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });

  url(): string {
    return `http://${HOOK_HOST}:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  start(): Promise<void> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * At least once, across hard kills: the service as `npm start` runs it (a process of its own, its
 * notification worker inside) is killed with SIGKILL after an alert is committed and before it is
 * sent, restarted, killed again while the receiver holds the webhook, and restarted once more. The
 * receiver sees one X-Webhook-Id throughout (the second arrival is recognizable as a repeat), gets
 * exactly one arrival after the last restart, and the ledger says delivered.
 */
describe('a delivery survives the delivering process being killed (SIGKILL)', function () {
  this.timeout(180_000);
  const receiver = new HoldingReceiver();
  const running: ServiceProcess[] = [];
  let dataDir: string;
  let env: Record<string, string>;

  before(async () => {
    await receiver.start();
    const dns = await testDnsServer();
    dns.set(HOOK_HOST, { A: ['127.0.0.1'] });
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-kill-'));
    env = {
      DATABASE_URL: (await testDatabase()).url,
      DATA_DIR: dataDir,
      DNS_SERVERS: dns.server,
      CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
      CHECK_LOCATIONS: 'none',
      NOTIFY_POLL_MS: '50',
      NOTIFY_LEASE_MS: '2000',
      NOTIFY_RETRY_BASE_MS: '50',
    };
  });
  after(async () => {
    for (const service of running.splice(0)) await stopService(service);
    await receiver.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const start = async (overrides: Record<string, string> = {}) => {
    const service = spawnService({ ...env, ...overrides });
    running.push(service);
    return { service, url: await listening(service) };
  };
  const kill = async (service: ServiceProcess) => {
    service.child.kill('SIGKILL');
    expect(await service.exited).to.deep.equal({ code: null, signal: 'SIGKILL' });
  };

  it('is committed, killed before sending, killed again mid-send, and arrives once more after the restart with the same X-Webhook-Id', async () => {
    // 1. A process whose worker does not come round before it dies (idle poll of ten minutes): the
    //    alert is committed, routed to its delivery, and nothing is sent.
    const first = await start({ NOTIFY_POLL_MS: '600000' });
    const signedUp = await apiAt(first.url, 'POST', '/api/auth/sign-up/email', {
      body: {
        name: 'Ada Lovelace',
        email: uniqueEmail('kill'),
        password: 'correct horse battery',
        organizationName: `kill ${randomBytes(3).toString('hex')}`,
      },
    });
    expect(signedUp.status, JSON.stringify(signedUp.body)).to.equal(200);
    const token = signedUp.body.token as string;
    const channel = await apiAt(first.url, 'POST', '/api/notification-channels', {
      token,
      body: { name: 'on call', type: 'webhook', config: { url: receiver.url() } },
    });
    expect(channel.status, JSON.stringify(channel.body)).to.equal(201);
    const sent = await apiAt(first.url, 'POST', '/api/notifications/send-alert', {
      token,
      body: { title: 'Primary database down', message: 'Failover started.', severity: 'critical' },
    });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(202);
    const deliveryId = sent.body.deliveries[0].id as string;
    await kill(first.service);
    expect(receiver.arrivals, 'nothing sent before the first kill').to.deep.equal([]);

    // 2. Restarted: the worker sends at once; the receiver holds its answer and the process dies
    //    before the attempt is recorded.
    const second = await start();
    await waitFor(() => receiver.arrivals.length === 1, { timeoutMs: 10_000, what: 'the webhook held by the receiver' });
    await kill(second.service);

    // 3. Restarted again, the receiver now answering: the lease of the killed worker lapses and the
    //    delivery is sent once more, then recorded as delivered.
    receiver.holding = false;
    const third = await start();
    const deliveries = async () =>
      (await apiAt(third.url, 'GET', `/api/notification-deliveries?channelId=${channel.body.publicId}`, { token })).body.items;
    const [delivered] = await waitFor(
      async () => {
        const items = await deliveries();
        return items[0]?.status === 'delivered' ? items : null;
      },
      { timeoutMs: 15_000, what: 'the delivery recorded as delivered' },
    );

    expect(receiver.arrivals, 'one held arrival before the second kill, exactly one after the last restart').to.have.length(2);
    expect(new Set(receiver.arrivals.map((a) => a.webhookId)), 'one idempotency key: the repeat is recognizable').to.deep.equal(
      new Set([deliveryId]),
    );
    expect(receiver.arrivals[1]!.body).to.equal(receiver.arrivals[0]!.body);
    for (const arrival of receiver.arrivals) {
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(arrival.signature)!;
      expect(v1).to.equal(createHmac('sha256', channel.body.signingSecret).update(`${t}.${arrival.body}`).digest('hex'));
    }
    expect(delivered).to.deep.include({ id: deliveryId, status: 'delivered' });
    // The killed attempt left no record (the process died before it could write one); the one that got an answer did.
    expect(delivered.attempts.map((a: Record<string, unknown>) => [a.attempt, a.statusCode, a.outcome])).to.deep.equal([
      [1, 200, 'delivered'],
    ]);
    expect(await stopService(third.service)).to.deep.equal({ code: 0, signal: null });
  });
});
