import { expect } from 'chai';
import { aDnsblResult, aListing } from '../../../support/dnsbl-results';
import { classifyDnsblAnswer, reversedIpLabel } from '../../../../src/domain/checks/dnsbl';

const listing = aListing;
const result = aDnsblResult;

describe('DNSBL rules', () => {
  it('reverses IPv4 octets and IPv6 nibbles', () => {
    expect(reversedIpLabel('1.2.3.4')).to.equal('4.3.2.1');
    expect(reversedIpLabel('2001:db8::1')).to.equal('1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2');
    expect(reversedIpLabel('256.1.1.1')).to.equal(null);
    expect(reversedIpLabel('01.1.1.1')).to.equal(null);
    expect(reversedIpLabel('1::2::3')).to.equal(null);
    expect(reversedIpLabel('example.com')).to.equal(null);
  });
  it('treats 127.0.0.x as listed and refusal codes as errors', () => {
    expect(classifyDnsblAnswer('127.0.0.2')).to.equal('listed');
    expect(classifyDnsblAnswer('127.255.255.254')).to.equal('error');
    expect(classifyDnsblAnswer('10.0.0.1')).to.equal('error');
  });
  it('is down when listed, and when every zone failed', () => {
    expect(result([listing('a')]).reason?.code).to.equal('dnsblListed');
    expect(result([], ['a', 'b']).reason?.code).to.equal('dnsblLookupFailed');
    expect(result([], ['a']).status).to.equal('up');
  });
});
