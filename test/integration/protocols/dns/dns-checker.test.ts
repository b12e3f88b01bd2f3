import { expect } from 'chai';
import { NodeDnsChecker } from '../../../../src/infrastructure/protocols/dns/node-dns-checker';
import { ResolverFactory } from '../../../../src/infrastructure/protocols/dns/resolver-factory';
import type { DnsCheckRequest } from '../../../../src/domain/checks/check-request';
import { LoopbackTargetPolicy, RejectingTargetPolicy } from '../../../support/loopback-target-policy';
import { DnsPeer } from '../../../support/peers/dns-peer';
import { checkContext } from '../../../support/check-requests';

describe('DNS checker against a loopback DNS server', () => {
  const peer = new DnsPeer({
    'example.test': { A: ['192.0.2.10', '192.0.2.11'], MX: [{ priority: 10, exchange: 'mail.example.test' }], TXT: ['v=spf1 -all'] },
  });
  let checker: NodeDnsChecker;
  const query = (overrides: Partial<DnsCheckRequest>): DnsCheckRequest => ({
    kind: 'dns',
    name: 'example.test',
    recordType: 'A',
    resolver: null,
    expectedValues: [],
    timeoutSeconds: 2,
    ...overrides,
  });

  before(async () => {
    await peer.start();
    checker = new NodeDnsChecker(new LoopbackTargetPolicy(), new ResolverFactory([peer.address]));
  });
  after(() => peer.stop());
  afterEach(() => {
    peer.failing = false;
  });

  it('answers A records with the DNS answer as evidence', async () => {
    const result = await checker.check(query({ expectedValues: ['192.0.2.11'] }), checkContext());
    expect(result.status).to.equal('up');
    expect(result.evidence.dns).to.deep.equal({ resolver: peer.address, recordType: 'A', answers: ['192.0.2.10', '192.0.2.11'] });
    expect(result.timings.dnsMs).to.be.a('number');
  });

  it('formats MX and TXT answers', async () => {
    const mx = await checker.check(query({ recordType: 'MX', expectedValues: ['10 mail.example.test.'] }), checkContext());
    expect(mx.status).to.equal('up');
    expect(mx.evidence.dns?.answers).to.deep.equal(['10 mail.example.test']);
    const txt = await checker.check(query({ recordType: 'TXT', expectedValues: ['v=spf1 -all'] }), checkContext());
    expect(txt.status).to.equal('up');
  });

  it('is down with dnsValueMismatch when an expected value is missing', async () => {
    const result = await checker.check(query({ expectedValues: ['192.0.2.99'] }), checkContext());
    expect(result.reason?.code).to.equal('dnsValueMismatch');
  });

  it('is down with dnsNoAnswer for NXDOMAIN', async () => {
    const result = await checker.check(query({ name: 'missing.test' }), checkContext());
    expect(result.reason?.code).to.equal('dnsNoAnswer');
  });

  it('is down with dnsQueryFailed when the server fails', async () => {
    peer.failing = true;
    const result = await checker.check(query({}), checkContext());
    expect(result.status).to.equal('down');
    expect(result.reason?.code).to.equal('dnsQueryFailed');
  });

  it('uses a chosen resolver, vetted by the target policy', async () => {
    const viaChosen = new NodeDnsChecker(new LoopbackTargetPolicy(), new ResolverFactory(['127.0.0.1:1']));
    const result = await viaChosen.check(query({ resolver: peer.address }), checkContext());
    expect(result.status).to.equal('up');
    const refused = await new NodeDnsChecker(new RejectingTargetPolicy(), new ResolverFactory([])).check(
      query({ resolver: peer.address }),
      checkContext(),
    );
    expect(refused.reason?.code).to.equal('targetRejected');
  });
});
