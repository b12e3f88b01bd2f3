import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { testClock } from '../../../support/test-clock';
import { useLoopbackChecks } from '../../../support/loopback-checks';
import { testCertificates } from '../../../support/peers/certificates';
import { DnsPeer } from '../../../support/peers/dns-peer';
import { HttpPeer } from '../../../support/peers/http-peer';
import { RdapPeer } from '../../../support/peers/rdap-peer';

describe('GET /api/tools/*', () => {
  const certs = testCertificates();
  const dns = new DnsPeer({
    'example.test': { A: ['192.0.2.10'], MX: [{ priority: 5, exchange: 'mx.example.test' }] },
    '2.0.0.127.bl.test': { A: ['127.0.0.2'], TXT: ['Test listing'] },
  });
  const https = new HttpPeer(certs.expiring);
  const rdap = new RdapPeer();
  const tcp = net.createServer((socket) => socket.end());
  let token: string;

  before(async () => {
    await Promise.all([dns.start(), https.start(), rdap.start(), new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r))]);
    rdap.rdapDomains.set('example.test', { expiresAt: '2099-01-01T00:00:00Z', registrar: 'Example Registrar' });
    await useLoopbackChecks({
      dnsServers: [dns.address],
      dnsblZones: [{ zone: 'bl.test', name: 'Test BL', delistUrl: 'https://bl.test/delist' }],
      rdapBootstrapUrl: rdap.bootstrapUrl,
      whoisServer: rdap.whoisServer,
      extraCa: [certs.ca.cert],
    });
    ({ token } = await anOrganization('tools'));
  });
  after(async () => {
    tcp.close();
    await Promise.all([dns.stop(), https.stop(), rdap.stop()]);
  });

  it('dns-lookup answers the records with the check result shape', async () => {
    const res = await api('GET', '/api/tools/dns-lookup', { token, query: { domain: 'example.test', type: 'MX' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ kind: 'dns', status: 'up', reason: null });
    expect(res.body.evidence.dns).to.deep.equal({ resolver: dns.address, recordType: 'MX', answers: ['5 mx.example.test'] });
    expect(res.body.timings).to.have.all.keys('dnsMs', 'connectMs', 'tlsMs', 'firstByteMs', 'totalMs');
    expect(Date.parse(res.body.checkedAt)).to.be.a('number').and.not.NaN;
  });

  it('ssl-certificate describes the chain and warns about an expiring certificate', async () => {
    const res = await api('GET', '/api/tools/ssl-certificate', { token, query: { host: 'localhost', port: String(https.port) } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ kind: 'tls', status: 'degraded' });
    expect(res.body.reason.code).to.equal('sslExpiringSoon');
    expect(res.body.evidence.certificate).to.include({ subject: 'localhost', issuer: 'Checks Test CA', authorized: true });
  });

  it('port-check is up for an open port and down for a closed one', async () => {
    const open = await api('GET', '/api/tools/port-check', {
      token,
      query: { host: '127.0.0.1', port: String((tcp.address() as AddressInfo).port) },
    });
    expect(open.body).to.include({ kind: 'tcp', status: 'up' });
    const closed = await api('GET', '/api/tools/port-check', { token, query: { host: '127.0.0.1', port: '1' } });
    expect(closed.status).to.equal(200);
    expect(closed.body.reason.code).to.equal('connectionRefused');
  });

  it('dnsbl-lookup lists the address with its delist URL', async () => {
    const res = await api('GET', '/api/tools/dnsbl-lookup', { token, query: { ip: '127.0.0.2' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.evidence.dnsbl.listings).to.deep.equal([
      { name: 'Test BL', reason: 'Test listing', listKey: 'bl.test', delistUrl: 'https://bl.test/delist', resultCode: '127.0.0.2' },
    ]);
  });

  it('domain-expiry answers expiry and registrar', async () => {
    const res = await api('GET', '/api/tools/domain-expiry', { token, query: { domain: 'example.test' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.evidence.domain).to.include({ domain: 'example.test', registrar: 'Example Registrar', source: 'rdap' });
  });

  it('refuses non-public targets with 400 invalidHostname', async () => {
    expectError(await api('GET', '/api/tools/port-check', { token, query: { host: '10.1.2.3', port: '22' } }), 400, 'invalidHostname');
    expectError(await api('GET', '/api/tools/ssl-certificate', { token, query: { host: '10.1.2.3' } }), 400, 'invalidHostname');
    expectError(await api('GET', '/api/tools/dnsbl-lookup', { token, query: { ip: '10.0.0.1' } }), 400, 'invalidHostname');
  });

  it('validates the query', async () => {
    expectError(await api('GET', '/api/tools/port-check', { token, query: { host: '127.0.0.1', port: 'abc' } }), 400, 'validationFailed');
    expectError(await api('GET', '/api/tools/port-check', { token, query: { host: '127.0.0.1', port: '' } }), 400, 'validationFailed');
    expectError(await api('GET', '/api/tools/dnsbl-lookup', { token, query: { ip: 'not-an-ip' } }), 400, 'validationFailed');
    expectError(await api('GET', '/api/tools/dns-lookup', { token, query: { domain: 'bad domain!' } }), 400, 'validationFailed');
    expectError(
      await api('GET', '/api/tools/dns-lookup', { token, query: { domain: 'example.test', type: 'BOGUS' } }),
      400,
      'validationFailed',
    );
  });

  it('requires a caller', async () => {
    expectError(await api('GET', '/api/tools/dns-lookup', { query: { domain: 'example.test' } }), 401, 'unauthorized');
  });

  it('rate-limits to 30 tool calls per minute per caller: 429 rateLimited with data.retryAfter', async () => {
    const { token: own } = await anOrganization('tools-rate');
    // The limiter counts in fixed one-minute windows of the server's clock: start the calls at a window's start.
    testClock.advance(60_000 - (testClock.now().getTime() % 60_000) + 1);
    for (let i = 0; i < 30; i++) {
      const res = await api('GET', '/api/tools/dns-lookup', { token: own, query: { domain: 'example.test' } });
      expect(res.status, `call ${i + 1}`).to.equal(200);
    }
    const limited = await api('GET', '/api/tools/port-check', { token: own, query: { host: '127.0.0.1', port: '1' } });
    expectError(limited, 429, 'rateLimited');
    expect(limited.body.data.retryAfter).to.be.a('number').within(1, 60);
    expect(limited.headers.get('retry-after')).to.equal(String(limited.body.data.retryAfter));
    const others = await api('GET', '/api/tools/dns-lookup', { token, query: { domain: 'example.test' } });
    expect(others.status).to.equal(200);
  });
});
