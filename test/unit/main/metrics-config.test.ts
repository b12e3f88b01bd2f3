import { expect } from 'chai';
import { ConfigError, loadConfig, metricsExposed } from '../../../src/main/config';

describe('configuration: metrics', () => {
  it('serves no metrics unless METRICS_TOKEN or METRICS_PORT is set; the own listener defaults to loopback', () => {
    const none = loadConfig({});
    expect(none.metrics).to.deep.equal({ token: undefined, port: undefined, host: '127.0.0.1' });
    expect(metricsExposed(none)).to.equal(false);
    expect(metricsExposed(loadConfig({ METRICS_TOKEN: 'a-long-enough-token' }))).to.equal(true);
    expect(metricsExposed(loadConfig({ METRICS_PORT: '9464' }))).to.equal(true);
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics).to.deep.equal({
      token: undefined,
      port: 9464,
      host: '10.0.0.5',
    });
    expect(metricsExposed(loadConfig({ METRICS_TOKEN: '', METRICS_PORT: '' }))).to.equal(false);
  });

  it('refuses a short or spaced token, a bad port, and the API port for the metrics', () => {
    for (const [env, message] of [
      [{ METRICS_TOKEN: 'short' }, /^Invalid configuration: METRICS_TOKEN: /],
      [{ METRICS_TOKEN: 'long enough but spaced' }, /^Invalid configuration: METRICS_TOKEN: /],
      [{ METRICS_PORT: '70000' }, /^Invalid configuration: METRICS_PORT: /],
      [{ PORT: '8080', METRICS_PORT: '8080' }, /^Invalid configuration: METRICS_PORT: must differ from PORT/],
    ] as const) {
      expect(() => loadConfig(env), JSON.stringify(env)).to.throw(ConfigError, message);
    }
  });
});
