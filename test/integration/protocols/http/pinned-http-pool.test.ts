import { expect } from 'chai';
import { CheckDeadline } from '../../../../src/application/checks/check-deadline';
import type { TargetPolicy } from '../../../../src/application/shared/target-policy';
import { CachingHostResolver } from '../../../../src/infrastructure/network/caching-host-resolver';
import { NodeDnsResolver } from '../../../../src/infrastructure/network/node-dns-resolver';
import { ResolvingTargetPolicy } from '../../../../src/infrastructure/network/resolving-target-policy';
import { PinnedHttpPool, type PooledResponse } from '../../../../src/infrastructure/protocols/http/pinned-http-pool';
import { ProbeError } from '../../../../src/infrastructure/protocols/shared/probe-error';
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
  const post = (pool: PinnedHttpPool, path: string, deadline = CheckDeadline.after(5_000)): Promise<PooledResponse> =>
    pool.request({
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
    const deadline = new CheckDeadline();
    const second = post(pool, '/queued', deadline);
    deadline.pass();
    const error = await second.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(ProbeError).and.to.have.property('code', 'timeout');
    receiver.release();
    await first;
    expect(receiver.requests.map((r) => r.path)).to.deep.equal(['/held']);
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
});
