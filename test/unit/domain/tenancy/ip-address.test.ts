import { expect } from 'chai';
import { parseIpAddress } from '../../../../src/domain/tenancy/ip-address';

describe('parseIpAddress', () => {
  const cases: Array<[string, string, 'v4' | 'v6']> = [
    ['192.0.2.1', '192.0.2.1', 'v4'],
    [' 8.8.8.8 ', '8.8.8.8', 'v4'],
    ['0.0.0.0', '0.0.0.0', 'v4'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1', 'v6'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1', 'v6'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1', 'v6'],
    ['::', '::', 'v6'],
    ['::1', '::1', 'v6'],
    ['fe80::', 'fe80::', 'v6'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3', 'v6'],
    ['64:ff9b::192.0.2.33', '64:ff9b::c000:221', 'v6'],
    ['::ffff:192.0.2.128', '192.0.2.128', 'v4'],
    ['0:0:0:0:0:FFFF:c000:0280', '192.0.2.128', 'v4'],
  ];
  for (const [input, address, family] of cases) {
    it(`reads ${input} as ${address} (${family})`, () => {
      expect(parseIpAddress(input)).to.deep.equal({ address, family });
    });
  }

  for (const bad of [
    '',
    '256.0.0.1',
    '01.2.3.4',
    '1.2.3',
    '1.2.3.4.5',
    '0x7f.0.0.1',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    ':::',
    '2001:db8::g',
    'fe80::1%eth0',
    '[::1]',
    '12345::',
    '1:2:3:4:5:6:7::8:9',
    'example.com',
    '1.2.3.4:80',
  ]) {
    it(`refuses ${JSON.stringify(bad)}`, () => {
      expect(parseIpAddress(bad)).to.equal(null);
    });
  }
});
