import { expect } from 'chai';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { NodeHttpChecker } from '../../../../src/infrastructure/protocols/http/node-http-checker';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import { LoopbackTargetPolicy, RejectingTargetPolicy } from '../../../support/loopback-target-policy';
import { testCertificates } from '../../../support/peers/certificates';
import { HttpPeer } from '../../../support/peers/http-peer';
import { listenOnLoopback } from '../../../support/peers/loopback-listen';
import { anHttpCheck, checkContext, TEST_USER_AGENT } from '../../../support/check-requests';
import { waitFor } from '../../../support/wait-for';

/** Loopback, with every name lookup taking `delayMs` (a slow resolver). */
class SlowResolvingPolicy extends LoopbackTargetPolicy {
  constructor(private readonly delayMs: number) {
    super();
  }
  override async vet(host: string) {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return super.vet(host);
  }
}

describe('HTTP(S) checker against loopback peers', () => {
  const certs = testCertificates();
  const tls = new SharedTlsContext([certs.ca.cert]);
  const checker = new NodeHttpChecker(new LoopbackTargetPolicy(), tls, TEST_USER_AGENT);
  const site = new HttpPeer();
  const secure = new HttpPeer(certs.valid);
  const expiring = new HttpPeer(certs.expiring);
  const selfSigned = new HttpPeer(certs.selfSigned);

  before(async () => {
    await Promise.all([site.start(), secure.start(), expiring.start(), selfSigned.start()]);
  });
  after(async () => {
    await Promise.all([site.stop(), secure.stop(), expiring.stop(), selfSigned.stop()]);
  });
  afterEach(() => {
    site.failing = false;
  });

  it('is up with status, selected headers and a timing breakdown', async () => {
    const result = await checker.check(anHttpCheck(site.url()), checkContext());
    expect(result.status).to.equal('up');
    expect(result.evidence.http).to.include({ status: 200 });
    expect(result.evidence.http!.headers).to.include({ 'content-type': 'text/html', server: 'test-peer' });
    expect(result.timings.connectMs).to.be.a('number');
    expect(result.timings.firstByteMs).to.be.a('number');
    expect(result.timings.totalMs).to.be.at.least(result.timings.firstByteMs!);
  });

  it('is down with unexpectedStatus when the peer fails', async () => {
    site.failing = true;
    const result = await checker.check(anHttpCheck(site.url()), checkContext());
    expect(result.status).to.equal('down');
    expect(result.reason?.code).to.equal('unexpectedStatus');
    expect(result.evidence.http?.status).to.equal(503);
  });

  it('accepts configured status codes', async () => {
    const result = await checker.check(
      anHttpCheck(site.url('/status/418'), { assertions: { expectedStatusCodes: ['418'] } }),
      checkContext(),
    );
    expect(result.status).to.equal('up');
  });

  it('checks a keyword present and absent', async () => {
    const present = await checker.check(
      anHttpCheck(site.url(), { assertions: { keyword: { value: 'welcome', mode: 'present', caseSensitive: false } } }),
      checkContext(),
    );
    expect(present.status).to.equal('up');
    const missing = await checker.check(
      anHttpCheck(site.url(), { assertions: { keyword: { value: 'Goodbye', mode: 'present', caseSensitive: true } } }),
      checkContext(),
    );
    expect(missing.reason?.code).to.equal('keywordMissing');
    const forbidden = await checker.check(
      anHttpCheck(site.url(), { assertions: { keyword: { value: 'Welcome', mode: 'absent', caseSensitive: true } } }),
      checkContext(),
    );
    expect(forbidden.reason?.code).to.equal('keywordFound');
  });

  it('checks page size min and max', async () => {
    const small = await checker.check(anHttpCheck(site.url(), { assertions: { minPageSize: 1000 } }), checkContext());
    expect(small.reason?.code).to.equal('pageTooSmall');
    const large = await checker.check(anHttpCheck(site.url('/big'), { assertions: { maxPageSize: 5000 } }), checkContext());
    expect(large.reason?.code).to.equal('pageTooLarge');
    const fits = await checker.check(
      anHttpCheck(site.url('/big'), { assertions: { minPageSize: 9000, maxPageSize: 20_000 } }),
      checkContext(),
    );
    expect(fits.status).to.equal('up');
    expect(fits.evidence.http?.bodyBytes).to.equal(10_000);
  });

  it('is degraded above the response-time threshold', async () => {
    const result = await checker.check(anHttpCheck(site.url('/slow'), { assertions: { maxResponseTimeMs: 100 } }), checkContext());
    expect(result.status).to.equal('degraded');
    expect(result.reason?.code).to.equal('responseTooSlow');
  });

  it('sends method, headers and body', async () => {
    site.requests.length = 0;
    const result = await checker.check(
      anHttpCheck(site.url('/echo'), {
        method: 'POST',
        headers: { 'x-custom': 'yes', 'content-type': 'text/plain' },
        body: 'ping',
        assertions: { keyword: { value: '"body":"ping"', mode: 'present', caseSensitive: true } },
      }),
      checkContext(),
    );
    expect(result.status).to.equal('up');
    expect(site.requests[0]).to.include({ method: 'POST' });
  });

  it('follows redirects hop by hop and records them', async () => {
    const result = await checker.check(
      anHttpCheck(site.url(`/redirect?to=${encodeURIComponent(secure.url('/'))}`), { assertions: { httpsRedirect: true } }),
      checkContext(),
    );
    expect(result.status).to.equal('up');
    expect(result.evidence.http?.finalUrl).to.equal(secure.url('/'));
    expect(result.evidence.http?.redirects).to.deep.equal([{ url: secure.url('/'), status: 302 }]);
  });

  it('re-applies the target policy at every redirect hop', async () => {
    const result = await checker.check(
      anHttpCheck(site.url(`/redirect?to=${encodeURIComponent('http://10.0.0.1/admin')}`)),
      checkContext(),
    );
    expect(result.status).to.equal('down');
    expect(result.reason?.code).to.equal('targetRejected');
    expect(result.evidence.http?.redirects).to.deep.equal([{ url: 'http://10.0.0.1/admin', status: 302 }]);
  });

  it('stops after maxRedirects', async () => {
    const loop = site.url('/loop');
    const result = await checker.check(anHttpCheck(loop, { maxRedirects: 2 }), checkContext());
    expect(result.reason?.code).to.equal('tooManyRedirects');
  });

  it('fails httpsRedirect when the plain address stays on http', async () => {
    const result = await checker.check(anHttpCheck(site.url(), { assertions: { httpsRedirect: true } }), checkContext());
    expect(result.reason?.code).to.equal('httpsRedirectMissing');
  });

  it('refuses to connect when the policy rejects the target', async () => {
    const refusing = new NodeHttpChecker(new RejectingTargetPolicy(), tls, TEST_USER_AGENT);
    site.requests.length = 0;
    const result = await refusing.check(anHttpCheck(site.url()), checkContext());
    expect(result.reason?.code).to.equal('targetRejected');
    expect(site.requests).to.have.length(0);
  });

  it('is down with connectionRefused on a closed port', async () => {
    const closed = new HttpPeer();
    await closed.start();
    const url = closed.url();
    await closed.stop();
    const result = await checker.check(anHttpCheck(url), checkContext());
    expect(result.reason?.code).to.equal('connectionRefused');
  });

  it('describes a trusted certificate and measures TLS', async () => {
    const result = await checker.check(anHttpCheck(secure.url(), { assertions: { ssl: { noticeDays: 14 } } }), checkContext());
    expect(result.status).to.equal('up');
    expect(result.timings.tlsMs).to.be.a('number');
    expect(result.evidence.certificate).to.include({ subject: 'localhost', issuer: 'Checks Test CA', authorized: true });
    expect(result.evidence.certificate!.daysRemaining).to.be.within(88, 90);
    expect(result.evidence.certificate!.fingerprint).to.match(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(result.evidence.certificate!.chain).to.be.an('array');
  });

  it('is degraded when the certificate expires within sslNoticeDays', async () => {
    const result = await checker.check(anHttpCheck(expiring.url(), { assertions: { ssl: { noticeDays: 14 } } }), checkContext());
    expect(result.status).to.equal('degraded');
    expect(result.reason?.code).to.equal('sslExpiringSoon');
  });

  it('is down with sslInvalid for a self-signed certificate', async () => {
    const result = await checker.check(anHttpCheck(selfSigned.url(), { assertions: { ssl: { noticeDays: 14 } } }), checkContext());
    expect(result.status).to.equal('down');
    expect(result.reason?.code).to.equal('sslInvalid');
    expect(result.evidence.certificate?.authorized).to.equal(false);
  });

  it('connectHost keeps url, Host header and SNI; connectTlsInsecure skips verification', async () => {
    secure.requests.length = 0;
    const viaConnectHost = anHttpCheck('https://localhost/echo', {
      connectTo: { host: '127.0.0.1', port: secure.port },
      assertions: { ssl: { noticeDays: 14 } },
    });
    const result = await checker.check(viaConnectHost, checkContext());
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(secure.requests[0]?.host).to.equal('localhost');
    expect(result.evidence.certificate?.authorized).to.equal(true);
    const insecure = await checker.check(
      anHttpCheck('https://localhost/', {
        connectTo: { host: '127.0.0.1', port: selfSigned.port },
        connectTlsInsecure: true,
        assertions: { ssl: { noticeDays: 14 } },
      }),
      checkContext(),
    );
    expect(insecure.status).to.equal('up');
  });

  it("connectTo from a host:port connectHost: the request reaches that port under the url's Host and SNI, verified for the url's name", async () => {
    secure.requests.length = 0;
    const result = await checker.check(
      anHttpCheck('https://localhost/', {
        connectTo: { host: '127.0.0.1', port: secure.port },
        assertions: { ssl: { noticeDays: 14 } },
      }),
      checkContext(),
    );
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(secure.requests).to.have.length(1);
    expect(secure.requests[0]).to.include({ host: 'localhost', servername: 'localhost' });
    expect(result.evidence.target).to.deep.equal({ host: 'localhost', address: '127.0.0.1', port: secure.port });
  });

  it("connectTo without a port dials the url's own port on the other host", async () => {
    site.requests.length = 0;
    const result = await checker.check(
      anHttpCheck(`http://www.monitor-fixture.com:${site.port}/`, {
        connectTo: { host: '127.0.0.1', port: null },
      }),
      checkContext(),
    );
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    expect(site.requests[0]?.host).to.equal(`www.monitor-fixture.com:${site.port}`);
  });

  it('identifies itself with its User-Agent on every request, each redirect hop included', async () => {
    site.requests.length = 0;
    const result = await checker.check(anHttpCheck(site.url(`/redirect?to=${encodeURIComponent(site.url('/'))}`)), checkContext());
    expect(result.status).to.equal('up');
    expect(site.requests.map((r) => r.userAgents)).to.deep.equal([[TEST_USER_AGENT], [TEST_USER_AGENT]]);
  });

  it("lets a monitor's own User-Agent header (any case) replace the service's: one User-Agent line, the monitor's", async () => {
    for (const name of ['User-Agent', 'user-agent', 'USER-AGENT']) {
      site.requests.length = 0;
      const result = await checker.check(
        anHttpCheck(site.url(), { headers: { [name]: `Custom/2.0 (${name})`, 'x-custom': 'yes' } }),
        checkContext(),
      );
      expect(result.status).to.equal('up');
      expect(site.requests[0]?.userAgents, name).to.deep.equal([`Custom/2.0 (${name})`]);
    }
  });

  it('measures phases on one clock from the check start: dns <= connect <= tls <= firstByte <= total, 0.1 ms steps', async () => {
    const RESOLVE_MS = 40;
    const WAIT_MS = 120;
    // a slow name lookup first, then TCP and TLS, then a server holding its first byte back: each
    // phase is counted from the start, so every later phase includes the lookup and the wait comes after TLS
    const slowLookups = new NodeHttpChecker(new SlowResolvingPolicy(RESOLVE_MS), tls, TEST_USER_AGENT);
    const result = await slowLookups.check(
      anHttpCheck(`https://localhost:${secure.port}/first-byte-after/${WAIT_MS}`, {
        assertions: { ssl: { noticeDays: 14 } },
      }),
      checkContext(),
    );
    expect(result.status, JSON.stringify(result.reason)).to.equal('up');
    const { dnsMs, connectMs, tlsMs, firstByteMs, totalMs } = result.timings;
    const phases = [dnsMs, connectMs, tlsMs, firstByteMs, totalMs];
    expect(
      phases.every((ms) => typeof ms === 'number'),
      JSON.stringify(result.timings),
    ).to.equal(true);
    const values = phases as number[];
    expect(values, 'ordered').to.deep.equal([...values].sort((a, b) => a - b));
    expect(
      values.every((ms) => Math.abs(ms * 10 - Math.round(ms * 10)) < 1e-9),
      'to 0.1 ms',
    ).to.equal(true);
    expect(dnsMs, JSON.stringify(result.timings)).to.be.at.least(RESOLVE_MS - 1);
    expect(firstByteMs! - tlsMs!, JSON.stringify(result.timings)).to.be.at.least(WAIT_MS - 1);
  });

  it('cuts the connection of a complete answer within a second when the server stops reading the rest of the body', async () => {
    const body = 'x'.repeat(16 * 1024 * 1024);
    let received = 0;
    let closed: Promise<unknown> | undefined;
    const server = await listenOnLoopback(
      net.createServer((socket) => {
        closed = once(socket, 'close');
        socket.on('error', () => undefined);
        socket.once('data', (chunk: Buffer) => {
          received += chunk.length;
          socket.pause(); // reads no more of the body for now
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
          setTimeout(() => {
            socket.on('data', (more: Buffer) => {
              received += more.length;
            });
            socket.resume();
          }, 1_500);
        });
      }),
    );
    try {
      const { port } = server.address() as AddressInfo;
      const result = await checker.check(anHttpCheck(`http://127.0.0.1:${port}/upload`, { method: 'POST', body }), checkContext());
      expect(result.status).to.equal('up');
      await closed;
      expect(received, 'the rest of the body was not pushed once the answer was in').to.be.lessThan(body.length);
    } finally {
      server.close();
    }
  });

  it('ends at the deadline with timeout when the server accepts and never answers, over HTTP and during a TLS handshake', async () => {
    const sockets: net.Socket[] = [];
    const silent = await listenOnLoopback(
      net.createServer((socket) => {
        sockets.push(socket.on('error', () => undefined));
        socket.resume(); // reads (and ignores) the request, so the checker's close is seen
      }),
    );
    try {
      const { port } = silent.address() as AddressInfo;
      for (const url of [`http://127.0.0.1:${port}/`, `https://localhost:${port}/`]) {
        const started = Date.now();
        const result = await checker.check(anHttpCheck(url), checkContext(300));
        expect(result.reason?.code, url).to.equal('timeout');
        expect(Date.now() - started, `${url}: ms to give up`).to.be.within(250, 1_500);
      }
      await waitFor(() => sockets.every((socket) => socket.destroyed || socket.readableEnded), {
        what: 'the checker to close its connections',
      });
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
