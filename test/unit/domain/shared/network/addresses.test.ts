import { expect } from 'chai';
import { parseIpAddress } from '../../../../../src/domain/shared/network/ip-address';
import { classifyAddress } from '../../../../../src/domain/shared/network/address-class';
import { cidrContains, parseCidr } from '../../../../../src/domain/shared/network/cidr';
import { isAllowedAddress, judgeResolution } from '../../../../../src/domain/shared/network/target-rules';

const ip = (text: string) => {
  const parsed = parseIpAddress(text);
  if (!parsed) throw new Error(`not an address: ${text}`);
  return parsed;
};

describe('ip addresses', () => {
  it('formats IPv6 canonically (RFC 5952)', () => {
    expect(ip('2001:0db8:0000:0000:0001:0000:0000:0001').text).to.equal('2001:db8::1:0:0:1');
    expect(ip('0:0:0:0:0:0:0:1').text).to.equal('::1');
    expect(ip('::ffff:7f00:1').text).to.equal('::ffff:127.0.0.1');
    expect(ip('[FE80::A]').text).to.equal('fe80::a');
    expect(ip('1:0:0:2:0:0:0:3').text).to.equal('1:0:0:2::3');
  });

  it('rejects malformed addresses', () => {
    for (const bad of ['', '1::2::3', '1:2:3:4:5:6:7:8:9', '12345::', '::1.2.3', 'example.com', '1.2.3.256', '::ffff:1.2.3.04']) {
      expect(parseIpAddress(bad), bad).to.equal(null);
    }
  });

  it('classifies range boundaries', () => {
    expect(classifyAddress(ip('9.255.255.255'))).to.equal('public');
    expect(classifyAddress(ip('10.0.0.0'))).to.equal('private');
    expect(classifyAddress(ip('10.255.255.255'))).to.equal('private');
    expect(classifyAddress(ip('11.0.0.0'))).to.equal('public');
    expect(classifyAddress(ip('100.64.0.0'))).to.equal('sharedCgnat');
    expect(classifyAddress(ip('169.254.0.0'))).to.equal('linkLocal');
    expect(classifyAddress(ip('198.19.255.255'))).to.equal('benchmark');
    expect(classifyAddress(ip('198.20.0.0'))).to.equal('public');
    expect(classifyAddress(ip('223.255.255.255'))).to.equal('public');
    expect(classifyAddress(ip('224.0.0.0'))).to.equal('multicast');
    expect(classifyAddress(ip('255.255.255.255'))).to.equal('broadcast');
    expect(classifyAddress(ip('1fff:ffff::1'))).to.equal('reserved');
    expect(classifyAddress(ip('2000::1'))).to.equal('public');
    expect(classifyAddress(ip('3fff:1000::1'))).to.equal('public');
    expect(classifyAddress(ip('4000::1'))).to.equal('reserved');
  });
});

describe('cidr allowlist', () => {
  it('parses ranges and bare addresses, refusing malformed ones', () => {
    expect(parseCidr('10.0.0.0/8')!.text).to.equal('10.0.0.0/8');
    expect(parseCidr('192.168.1.5')!.text).to.equal('192.168.1.5/32');
    expect(parseCidr('fd00::/8')!.text).to.equal('fd00::/8');
    for (const bad of ['10.0.0.0/33', '10.0.0.0/', 'fd00::/129', 'example.com/8', '10.0.0.0/8/8', '/8']) {
      expect(parseCidr(bad), bad).to.equal(null);
    }
  });

  it('matches prefixes at their edges and the IPv4 inside mapped IPv6', () => {
    const range = parseCidr('10.20.0.0/16')!;
    expect(cidrContains(range, ip('10.20.255.255'))).to.equal(true);
    expect(cidrContains(range, ip('10.21.0.0'))).to.equal(false);
    expect(cidrContains(range, ip('::ffff:10.20.1.1'))).to.equal(true);
    expect(cidrContains(parseCidr('0.0.0.0/0')!, ip('8.8.8.8'))).to.equal(true);
    expect(cidrContains(parseCidr('fd00::/8')!, ip('10.0.0.1'))).to.equal(false);
  });

  it('lets an allowlisted private address through and nothing else', () => {
    const allowlist = [parseCidr('10.20.0.0/16')!];
    expect(isAllowedAddress(ip('10.20.3.4'), allowlist)).to.equal(true);
    expect(isAllowedAddress(ip('10.21.3.4'), allowlist)).to.equal(false);
    expect(isAllowedAddress(ip('127.0.0.1'), allowlist)).to.equal(false);
  });
});

describe('judging a resolution', () => {
  it('needs at least one address, all of them allowed', () => {
    expect(judgeResolution([], [])).to.equal('unresolvable');
    expect(judgeResolution([ip('8.8.8.8'), ip('2606:4700::1')], [])).to.equal('allowed');
    expect(judgeResolution([ip('8.8.8.8'), ip('10.0.0.1')], [])).to.equal('nonPublicAddress');
    expect(judgeResolution([ip('8.8.8.8'), ip('10.0.0.1')], [parseCidr('10.0.0.0/8')!])).to.equal('allowed');
  });
});
