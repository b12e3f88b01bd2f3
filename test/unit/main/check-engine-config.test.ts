import { expect } from 'chai';
import { ConfigError, loadConfig, runsChecks } from '../../../src/main/config';
import { dispatcherOptions } from '../../../src/main/modules/scheduling.module';

describe('configuration: the check engine', () => {
  it('runs at most CHECK_CONCURRENCY checks at once per process, 8,000 by default', () => {
    expect(dispatcherOptions(loadConfig({})).maxInFlight).to.equal(8_000);
    expect(dispatcherOptions(loadConfig({ CHECK_CONCURRENCY: '500' })).maxInFlight).to.equal(500);
    expect(() => loadConfig({ CHECK_CONCURRENCY: '0' })).to.throw(ConfigError, /CHECK_CONCURRENCY/);
    expect(() => loadConfig({ CHECK_CONCURRENCY: 'many' })).to.throw(ConfigError, /CHECK_CONCURRENCY/);
  });

  it('runs checks in a process serving a location, none with CHECK_LOCATIONS=none', () => {
    expect(runsChecks(loadConfig({}))).to.equal(true);
    expect(runsChecks(loadConfig({ MONITOR_LOCATIONS: 'eu-1,us-1', CHECK_LOCATIONS: 'us-1' }))).to.equal(true);
    expect(runsChecks(loadConfig({ CHECK_LOCATIONS: 'none' }))).to.equal(false);
  });
});
