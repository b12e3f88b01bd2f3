import { expect } from 'chai';
import type { Request } from 'express';
import { parseCidr, type Cidr } from '../../../../src/domain/shared/network/cidr';
import { requestHostname } from '../../../../src/interfaces/http/custom-domains/host-routing';

const aRequest = (peer: string, headers: Record<string, string>) => ({ headers, socket: { remoteAddress: peer } }) as unknown as Request;
const trust = (...entries: string[]): Cidr[] => entries.map((entry) => parseCidr(entry)!);

describe('requestHostname (which host a request was for)', () => {
  const headers = { host: 'api.monitor.example.org:3000', 'x-forwarded-host': 'status.acme.com' };

  it('reads the Host header, without port, when no proxy is trusted (TRUST_PROXY unset)', () => {
    expect(requestHostname(aRequest('127.0.0.1', headers), [])).to.equal('api.monitor.example.org');
  });

  it('ignores X-Forwarded-Host from a peer that is not a trusted proxy', () => {
    expect(requestHostname(aRequest('203.0.113.9', headers), trust('10.0.0.0/8'))).to.equal('api.monitor.example.org');
  });

  it('believes X-Forwarded-Host from a trusted proxy, IPv4-mapped peer addresses included', () => {
    expect(requestHostname(aRequest('10.1.2.3', headers), trust('10.0.0.0/8'))).to.equal('status.acme.com');
    expect(requestHostname(aRequest('::ffff:10.1.2.3', headers), trust('10.0.0.0/8'))).to.equal('status.acme.com');
  });

  it('takes the value the trusted proxy appended last, not what its client sent', () => {
    const chained = { host: 'x', 'x-forwarded-host': 'api.monitor.example.org, Status.Acme.com:443' };
    expect(requestHostname(aRequest('10.1.2.3', chained), trust('10.1.2.3'))).to.equal('status.acme.com');
  });

  it('falls back to Host when a trusted proxy sends no X-Forwarded-Host', () => {
    expect(requestHostname(aRequest('10.1.2.3', { host: 'status.acme.com' }), trust('10.0.0.0/8'))).to.equal('status.acme.com');
  });
});
