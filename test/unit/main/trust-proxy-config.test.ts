import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/main/config';

describe('configuration: TRUST_PROXY', () => {
  it('trusts no proxy by default: custom-domain routing reads the Host header only', () => {
    expect(loadConfig({}).trustProxy).to.deep.equal([]);
  });

  it('takes addresses and CIDRs, v4 and v6, as ranges', () => {
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1, fd00::/8' }).trustProxy).to.deep.equal([
      '127.0.0.1/32',
      '10.0.0.0/8',
      '::1/128',
      'fd00::/8',
    ]);
  });

  it('refuses anything that is not an address or a CIDR, naming it', () => {
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/8,loopback' })).to.throw(
      ConfigError,
      'Invalid configuration: TRUST_PROXY: not an address or CIDR: loopback',
    );
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).to.throw(ConfigError, /TRUST_PROXY/);
  });
});
