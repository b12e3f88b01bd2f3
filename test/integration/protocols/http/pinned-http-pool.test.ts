import { expect } from 'chai';
import { CheckDeadline } from '../../../../src/application/checks/check-deadline';
import type { TargetPolicy } from '../../../../src/application/shared/target-policy';
import { CachingHostResolver } from '../../../../src/infrastructure/network/caching-host-resolver';
import { NodeDnsResolver } from '../../../../src/infrastructure/network/node-dns-resolver';
import { ResolvingTargetPolicy } from '../../../../src/infrastructure/network/resolving-target-policy';
import { PinnedHttpPool, type PooledResponse } from '../../../../src/infrastructure/protocols/http/pinned-http-pool';
import { TurnNotFree } from '../../../../src/infrastructure/protocols/shared/slots';
import { ProbeError } from '../../../../src/infrastructure/protocols/shared/probe-error';
import { HttpNotificationSender } from '../../../../src/infrastructure/notifications/http-notification-sender';
import { HmacWebhookSigner } from '../../../../src/infrastructure/notifications/hmac-webhook-signer';
import type { ClaimedDirectDelivery } from '../../../../src/application/notifications/delivery-ports';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import { CountingReceiver } from '../../../support/peers/counting-receiver';
import { startTestDns, type TestDns } from '../../../support/test-dns';
import { waitFor } from '../../../support/wait-for';

const HOST = 'hooks.pool-fixture.com';

/**
 * The notification connection pool against a loopback receiver and a loopback DNS server, through
 * the real target policy (loopback allowlisted, as CHECK_PRIVATE_ALLOWLIST=127.0.0.0/8 does) over a
 * DNS cache on a clock the test moves: connections are kept and reused, a name's cached answer is
 * used for its TTL, and a name whose new answer is refused reaches nothing, its kept connections
 * notwithstanding.
 */
describe('PinnedHttpPool: kept-alive notification connections, pinned and vetted', () => {
  let dns: TestDns;
  let receiver: CountingReceiver;
  const pools: PinnedHttpPool[] = [];

  before(async () => {
    dns = await startTestDns({});
    receiver = await new CountingReceiver().start();
  });
  beforeEach(() => {
    dns.set(HOST, { A: ['127.0.0.1'] });
    receiver.connections.length = 0;
    receiver.requests.length = 0;
  });
  afterEach(() => {
    // A test that failed while the receiver held its answers leaves none held for the next.
    receiver.release();
    for (const pool of pools.splice(0)) pool.close();
  });
  after(async () => {
    await receiver.stop();
    await dns.close();
  });

  /** A pool through the real policy over a DNS cache whose clock the test moves (`clock.ms`). */
  function aPool(socketsPerOrigin = 4, policy?: TargetPolicy) {
    const clock = { ms: 0 };
    const cache = new CachingHostResolver(
      new NodeDnsResolver([dns.server], { timeoutMs: 500, tries: 1 }),
      { maxEntries: 100 },
      () => clock.ms,
    );
    const pool = new PinnedHttpPool(policy ?? new ResolvingTargetPolicy(cache, ['127.0.0.0/8']), new SharedTlsContext([]), {
      socketsPerOrigin,
      origins: 10,
    });
    pools.push(pool);
    return { pool, clock };
  }
  const post = (pool: PinnedHttpPool, path: string, deadline = CheckDeadline.after(5_000), exchangeMs?: number): Promise<PooledResponse> =>
    pool.request({
      ...(exchangeMs === undefined ? {} : { exchangeMs }),
      url: new URL(`http://${HOST}:${receiver.port}${path}`),
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path }),
      userAgent: 'pool-test',
      keepBodyBytes: 512,
      countLimit: 65_536,
      deadline,
    });

  it("sends one receiver's requests one after another over one kept connection", async () => {
    const { pool } = aPool();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await post(pool, `/seq-${i}`));
    expect(answers.map((a) => [a.status, a.body?.toString()])).to.deep.equal(Array(5).fill([200, 'ok']));
    expect(answers.map((a) => a.reused)).to.deep.equal([false, true, true, true, true]);
    expect(receiver.requests.map((r) => r.path)).to.deep.equal(['/seq-0', '/seq-1', '/seq-2', '/seq-3', '/seq-4']);
    expect(receiver.connections, 'one connection for the five').to.deep.equal(['127.0.0.1']);
  });

  it('opens at most socketsPerOrigin connections to one receiver, however many requests come at once', async () => {
    const { pool } = aPool(2);
    receiver.holding = true;
    const answers = Promise.all(Array.from({ length: 6 }, (_, i) => post(pool, `/burst-${i}`)));
    await waitFor(() => receiver.held === 2, { what: 'two requests held at the receiver' });
    receiver.release();
    expect((await answers).every((a) => a.status === 200)).to.equal(true);
    expect(receiver.requests).to.have.length(6);
    expect(receiver.connections.length, 'six requests, two connections').to.equal(2);
  });

  it('gives up a request still waiting for its turn when its deadline passes, sending nothing', async () => {
    const { pool } = aPool(1);
    receiver.holding = true;
    const first = post(pool, '/held');
    await waitFor(() => receiver.held === 1, { what: 'the first request held' });
    // Its name is vetted at once (the first's answer is cached): the deadline passes while it waits its turn.
    const second = post(pool, '/queued', CheckDeadline.after(500));
    const error = await second.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(TurnNotFree).and.to.have.property('code', 'timeout');
    expect((error as Error).message).to.match(/1 requests ahead/);
    receiver.release();
    await first;
    expect(receiver.requests.map((r) => r.path)).to.deep.equal(['/held']);
  });

  it('bounds the exchange from its turn with exchangeMs: a request queued longer than that is still sent and answered', async () => {
    const { pool } = aPool(1);
    receiver.holding = true;
    const first = post(pool, '/ahead', CheckDeadline.after(5_000), 5_000);
    await waitFor(() => receiver.held === 1, { what: 'the first request held' });
    // Queued behind the held one for longer than its own exchange may take.
    const queued = post(pool, '/behind', CheckDeadline.after(5_000), 300);
    await new Promise((resolve) => setTimeout(resolve, 600));
    receiver.release();
    expect([(await first).status, (await queued).status]).to.deep.equal([200, 200]);
    expect(receiver.requests.map((r) => r.path)).to.deep.equal(['/ahead', '/behind']);
  });

  it('times an exchange out at exchangeMs, however far its deadline: the receiver took too long, not the queue', async () => {
    const { pool } = aPool(1);
    receiver.holding = true;
    const started = Date.now();
    const error = await post(pool, '/slow-answer', CheckDeadline.after(10_000), 300).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(ProbeError).and.not.to.be.instanceOf(TurnNotFree);
    expect(error).to.have.property('code', 'timeout');
    expect(Date.now() - started, 'given up at exchangeMs, not at the deadline').to.be.below(5_000);
    expect(receiver.requests.map((r) => r.path)).to.deep.equal(['/slow-answer']);
  });

  it("keeps a name's answer for its TTL, then pins the new address in a pool of its own", async () => {
    const { pool, clock } = aPool();
    await post(pool, '/before');
    dns.set(HOST, { A: ['127.0.0.2'] });
    await post(pool, '/cached');
    expect(receiver.connections, 'the cached answer, the kept connection').to.deep.equal(['127.0.0.1']);
    clock.ms += 60_000; // the test DNS answers with a TTL of 60 s
    await post(pool, '/moved');
    expect(receiver.connections, 'a new connection to the new address').to.deep.equal(['127.0.0.1', '127.0.0.2']);
    expect(receiver.requests.map((r) => [r.path, receiver.connections[r.connection]])).to.deep.equal([
      ['/before', '127.0.0.1'],
      ['/cached', '127.0.0.1'],
      ['/moved', '127.0.0.2'],
    ]);
  });

  it('refuses a cached name that now resolves to a refused address: nothing sent, its kept connection unused', async () => {
    const { pool, clock } = aPool();
    await post(pool, '/allowed');
    dns.set(HOST, { A: ['10.0.0.5'] });
    clock.ms += 60_000;
    const error = await post(pool, '/rebound').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(ProbeError).and.to.have.property('code', 'targetRejected');
    expect(
      receiver.requests.map((r) => r.path),
      'the kept connection to 127.0.0.1 carried nothing more',
    ).to.deep.equal(['/allowed']);
    expect(receiver.connections).to.deep.equal(['127.0.0.1']);
  });

  it('judges every address again as it is dialled: an address the policy refuses by then is never connected to', async () => {
    let allowNow = true;
    const judging: TargetPolicy = {
      vet: async () => ({ ok: true, hostname: HOST, addresses: ['127.0.0.1'] }),
      isAllowedAddress: () => allowNow,
    };
    const { pool } = aPool(4, judging);
    await post(pool, '/first');
    expect(receiver.connections).to.have.length(1);
    allowNow = false;
    const answers = await Promise.allSettled([post(pool, '/second'), post(pool, '/third')]);
    // one may ride the kept connection (dialled while allowed); the other needs a new one, refused at connect time
    const refused = answers.filter((a) => a.status === 'rejected').map((a) => (a as PromiseRejectedResult).reason);
    expect(refused).to.have.length.at.least(1);
    for (const reason of refused) expect(reason).to.be.instanceOf(ProbeError).and.to.have.property('code', 'targetRejected');
    expect(receiver.connections, 'no connection made once refused').to.have.length(1);
  });

  describe('HttpNotificationSender over the pool', () => {
    const aHook = (path: string): ClaimedDirectDelivery => ({
      id: `0000000${path.length}-0000-4000-8000-000000000000`,
      organizationId: 1,
      customerId: null,
      recipient: { type: 'webhook', url: `http://${HOST}:${receiver.port}${path}`, secret: null },
      attempts: 0,
      content: { event: 'test', occurredAt: new Date(0).toISOString(), subject: 'Test', text: 'A test' },
    });
    const aSender = (pool: PinnedHttpPool, timeoutMs: number, turnMs: number) =>
      new HttpNotificationSender(pool, new HmacWebhookSigner(), 'pool-test', timeoutMs, () => new Date(), turnMs);

    it('retries a post that never had its turn as its own delay (local), not a failure of the receiver', async () => {
      const { pool } = aPool(1);
      const sender = aSender(pool, 5_000, 200);
      receiver.holding = true;
      const first = sender.sendDirect(aHook('/turn-held'));
      await waitFor(() => receiver.held === 1, { what: 'the first post held' });
      const second = await sender.sendDirect(aHook('/turn-never'));
      expect(second).to.include({ verdict: 'retry', statusCode: null, local: true, latencyMs: 0 });
      expect(second.error).to.match(/No connection to the receiver came free in time/);
      receiver.release();
      expect(await first).to.include({ verdict: 'delivered', statusCode: 200 });
      expect(first).not.to.have.property('local');
      expect(receiver.requests.map((r) => r.path)).to.deep.equal(['/turn-held']);
    });

    it("records the receiver's latency from the post's turn, not the wait behind the post ahead of it", async () => {
      const { pool } = aPool(1);
      const sender = aSender(pool, 5_000, 5_000);
      receiver.holding = true;
      const first = sender.sendDirect(aHook('/latency-ahead'));
      await waitFor(() => receiver.held === 1, { what: 'the first post held' });
      const queued = sender.sendDirect(aHook('/latency-behind'));
      await new Promise((resolve) => setTimeout(resolve, 600));
      receiver.release();
      const [ahead, behind] = await Promise.all([first, queued]);
      expect(ahead.latencyMs, 'the held answer took 600 ms').to.be.at.least(550);
      expect(behind).to.include({ verdict: 'delivered', statusCode: 200 });
      expect(behind.latencyMs, 'answered at once once it had its turn').to.be.below(550);
    });

    it("counts a receiver's slow answer as its failure: timed out at the send's time from its turn", async () => {
      const { pool } = aPool(1);
      const sender = aSender(pool, 300, 5_000);
      receiver.holding = true;
      const outcome = await sender.sendDirect(aHook('/answer-late'));
      expect(outcome).to.include({ verdict: 'retry', statusCode: null });
      expect(outcome).not.to.have.property('local');
      expect(outcome.latencyMs).to.be.below(5_000);
    });
  });
});
