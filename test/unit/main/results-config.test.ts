import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/main/config';

describe('configuration: result retention and downsampling', () => {
  it('keeps results 30 days (raw 6 hours), rollups 400 days (daily after 8) and samples up-result detail hourly by default', () => {
    expect(loadConfig({}).results).to.deep.equal({
      retentionDays: 30,
      rollupRetentionDays: 400,
      rawHours: 6,
      dailyRollupAfterDays: 8,
      detailSampleMinutes: 60,
    });
  });

  it('reads RESULTS_RETENTION_DAYS, ROLLUP_RETENTION_DAYS and RESULTS_DETAIL_SAMPLE_MINUTES', () => {
    const config = loadConfig({
      RESULTS_RETENTION_DAYS: '7',
      ROLLUP_RETENTION_DAYS: '90',
      RESULTS_DETAIL_SAMPLE_MINUTES: '0',
      RESULTS_RAW_HOURS: '24',
      ROLLUP_DAILY_AFTER_DAYS: '31',
    });
    expect(config.results).to.deep.equal({
      retentionDays: 7,
      rollupRetentionDays: 90,
      rawHours: 24,
      dailyRollupAfterDays: 31,
      detailSampleMinutes: 0,
    });
    expect(() => loadConfig({ RESULTS_RAW_HOURS: '0' })).to.throw(ConfigError, /RESULTS_RAW_HOURS/);
    expect(() => loadConfig({ RESULTS_RETENTION_DAYS: '0' })).to.throw(ConfigError, /RESULTS_RETENTION_DAYS/);
  });
});
