import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/main/config';

describe('config: monitoring settings', () => {
  it('defaults to the system resolvers, no allowlist, one location `local` that this process serves, and a generated key', () => {
    const config = loadConfig({});
    expect(config).to.deep.include({
      dnsServers: [],
      checkPrivateAllowlist: [],
      checkLocations: ['local'],
      servedLocations: ['local'],
      credentialsKey: undefined,
    });
  });

  it('names the single location by MONITOR_LOCATIONS, and serves it without CHECK_LOCATIONS', () => {
    expect(loadConfig({ MONITOR_LOCATIONS: 'fra1' })).to.deep.include({ checkLocations: ['fra1'], servedLocations: ['fra1'] });
  });

  it('takes a catalogue of several locations only with the ones this process serves named (one process per region)', () => {
    expect(() => loadConfig({ MONITOR_LOCATIONS: 'eu-west,us-east' })).to.throw(
      ConfigError,
      /^Invalid configuration: CHECK_LOCATIONS: required when MONITOR_LOCATIONS lists several locations/,
    );
    expect(loadConfig({ MONITOR_LOCATIONS: 'eu-west,us-east', CHECK_LOCATIONS: 'eu-west' }).servedLocations).to.deep.equal(['eu-west']);
    expect(loadConfig({ MONITOR_LOCATIONS: 'eu-west,us-east', CHECK_LOCATIONS: 'none' }).servedLocations).to.deep.equal([]);
  });

  it('keeps the heartbeat pseudo-location out of the catalogue', () => {
    expect(() => loadConfig({ MONITOR_LOCATIONS: 'heartbeat' })).to.throw(ConfigError, /MONITOR_LOCATIONS: heartbeat is reserved/);
  });

  it('reads DNS_SERVERS, CHECK_PRIVATE_ALLOWLIST, MONITOR_LOCATIONS, CHECK_LOCATIONS and CREDENTIALS_KEY', () => {
    const config = loadConfig({
      DNS_SERVERS: '9.9.9.9, 127.0.0.1:5353,[2620:fe::fe]:53',
      CHECK_PRIVATE_ALLOWLIST: '10.20.0.0/16,fd00::/8',
      MONITOR_LOCATIONS: 'eu-central,us-east',
      CHECK_LOCATIONS: 'us-east',
      CREDENTIALS_KEY: 'ab'.repeat(32),
    });
    expect(config.servedLocations).to.deep.equal(['us-east']);
    expect(config.dnsServers).to.deep.equal(['9.9.9.9', '127.0.0.1:5353', '[2620:fe::fe]:53']);
    expect(config.checkPrivateAllowlist).to.deep.equal(['10.20.0.0/16', 'fd00::/8']);
    expect(config.checkLocations).to.deep.equal(['eu-central', 'us-east']);
    expect(config.credentialsKey!.length).to.equal(32);
  });

  it('refuses malformed values with a one-line reason', () => {
    expect(() => loadConfig({ DNS_SERVERS: 'dns.example.com' })).to.throw(ConfigError, /DNS_SERVERS/);
    expect(() => loadConfig({ CHECK_PRIVATE_ALLOWLIST: '10.0.0.0/33' })).to.throw(ConfigError, /CHECK_PRIVATE_ALLOWLIST/);
    expect(() => loadConfig({ MONITOR_LOCATIONS: 'EU Central' })).to.throw(ConfigError, /MONITOR_LOCATIONS/);
    expect(() => loadConfig({ CHECK_LOCATIONS: 'mars-north' })).to.throw(
      ConfigError,
      /CHECK_LOCATIONS: mars-north is not in MONITOR_LOCATIONS/,
    );
    expect(loadConfig({ CHECK_LOCATIONS: 'none' }).servedLocations).to.deep.equal([]);
    expect(() => loadConfig({ CREDENTIALS_KEY: 'c2hvcnQ=' })).to.throw(ConfigError, /CREDENTIALS_KEY/);
  });
});
