import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/main/config';
import { dispatcherOptions } from '../../../src/main/modules/scheduling.module';

describe('configuration: the check engine', () => {
  it('runs at most CHECK_CONCURRENCY checks at once per process, 8,000 by default', () => {
    expect(dispatcherOptions(loadConfig({})).maxInFlight).to.equal(8_000);
    expect(dispatcherOptions(loadConfig({ CHECK_CONCURRENCY: '500' })).maxInFlight).to.equal(500);
    expect(() => loadConfig({ CHECK_CONCURRENCY: '0' })).to.throw(ConfigError, /CHECK_CONCURRENCY/);
    expect(() => loadConfig({ CHECK_CONCURRENCY: 'many' })).to.throw(ConfigError, /CHECK_CONCURRENCY/);
  });
});
