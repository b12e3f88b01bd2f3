import { expect } from 'chai';
import {
  assertCreateInterval,
  assertIntervalFitsType,
  assertPatchInterval,
  checkIntervalCeiling,
  defaultCheckInterval,
} from '../../../../src/domain/monitoring/check-interval';
import { assertTimeout } from '../../../../src/domain/monitoring/timeout';
import { applyCheckConfig, DEFAULT_CHECK_CONFIG } from '../../../../src/domain/monitoring/check-config';
import { assertLocations, defaultLocations } from '../../../../src/domain/monitoring/locations';
import { expectAppError } from '../../../support/expect-app-error';

describe('check interval', () => {
  it('has a ceiling of 1440 minutes, 43200 for heartbeats', () => {
    expect(checkIntervalCeiling('http')).to.equal(1440);
    expect(checkIntervalCeiling('tcp')).to.equal(1440);
    expect(checkIntervalCeiling('heartbeat')).to.equal(43200);
  });

  it('POST: accepts the ceiling, reports one more as a validation issue on checkInterval', () => {
    expect(() => assertCreateInterval(1440, 'http', 1)).not.to.throw();
    expect(() => assertCreateInterval(43200, 'heartbeat', 1)).not.to.throw();
    const error = expectAppError(() => assertCreateInterval(1441, 'http', 1), 'validationFailed');
    expect((error.details.issues as Array<{ path: string[] }>)[0]!.path).to.deep.equal(['checkInterval']);
    expectAppError(() => assertCreateInterval(43201, 'heartbeat', 1), 'validationFailed');
  });

  it('POST: below the package minimum answers checkIntervalTooLow, at it passes', () => {
    expectAppError(() => assertCreateInterval(4, 'http', 5), 'checkIntervalTooLow', { minimum: 5 });
    expect(() => assertCreateInterval(5, 'http', 5)).not.to.throw();
  });

  it('PATCH: non-integers and values below 1 answer invalidCheckInterval', () => {
    for (const bad of [0, -1, 1.5, '5', null, true, Number.NaN]) {
      expectAppError(() => assertPatchInterval(bad, 'http', 1), 'invalidCheckInterval');
    }
    expect(assertPatchInterval(1, 'http', 1)).to.equal(1);
  });

  it('PATCH: above the type ceiling answers checkIntervalTooHigh', () => {
    expectAppError(() => assertPatchInterval(1441, 'http', 1), 'checkIntervalTooHigh', { maximum: 1440 });
    expect(assertPatchInterval(1441, 'heartbeat', 1)).to.equal(1441);
    expectAppError(() => assertPatchInterval(43201, 'heartbeat', 1), 'checkIntervalTooHigh', { maximum: 43200 });
    expectAppError(() => assertIntervalFitsType(1441, 'http'), 'checkIntervalTooHigh');
  });

  it('PATCH: below the package minimum answers checkIntervalTooLow', () => {
    expectAppError(() => assertPatchInterval(2, 'http', 3), 'checkIntervalTooLow');
  });

  it('defaults to 5 minutes (60 for heartbeats), raised to the package minimum', () => {
    expect(defaultCheckInterval('http', 1)).to.equal(5);
    expect(defaultCheckInterval('http', 10)).to.equal(10);
    expect(defaultCheckInterval('heartbeat', 1)).to.equal(60);
  });
});

describe('timeoutSeconds', () => {
  it('accepts 1 and 60, refuses 0, 61 and non-integers with invalidTimeout', () => {
    expect(assertTimeout(1)).to.equal(1);
    expect(assertTimeout(60)).to.equal(60);
    for (const bad of [0, 61, 2.5, '30', null]) expectAppError(() => assertTimeout(bad), 'invalidTimeout');
  });
});

describe('website check configuration', () => {
  it('applies sent fields over the current ones', () => {
    const next = applyCheckConfig(DEFAULT_CHECK_CONFIG, { checkKeywordEnabled: true, minPageSize: 0, maxPageSize: 10, sslNoticeDays: 365 });
    expect(next).to.include({ checkKeywordEnabled: true, minPageSize: 0, maxPageSize: 10, sslNoticeDays: 365, checkSslEnabled: true });
  });

  it('refuses out-of-range fields with invalidCheckConfig naming the field', () => {
    expectAppError(() => applyCheckConfig(DEFAULT_CHECK_CONFIG, { minPageSize: -1 }), 'invalidCheckConfig', { field: 'minPageSize' });
    expectAppError(() => applyCheckConfig(DEFAULT_CHECK_CONFIG, { sslNoticeDays: 366 }), 'invalidCheckConfig', { field: 'sslNoticeDays' });
    expectAppError(() => applyCheckConfig(DEFAULT_CHECK_CONFIG, { sslNoticeDays: 0 }), 'invalidCheckConfig', { field: 'sslNoticeDays' });
    expectAppError(() => applyCheckConfig(DEFAULT_CHECK_CONFIG, { checkSslEnabled: 'yes' }), 'invalidCheckConfig', {
      field: 'checkSslEnabled',
    });
    expectAppError(() => applyCheckConfig(DEFAULT_CHECK_CONFIG, { maxPageSize: 1.5 }), 'invalidCheckConfig', { field: 'maxPageSize' });
  });

  it('keeps min <= max across the stored and sent values', () => {
    const stored = applyCheckConfig(DEFAULT_CHECK_CONFIG, { maxPageSize: 100 });
    expect(applyCheckConfig(stored, { minPageSize: 100 }).minPageSize).to.equal(100);
    expectAppError(() => applyCheckConfig(stored, { minPageSize: 101 }), 'invalidCheckConfig', { field: 'minPageSize' });
    expect(applyCheckConfig(stored, { minPageSize: 500, maxPageSize: null })).to.include({ minPageSize: 500, maxPageSize: null });
  });
});

describe('locations', () => {
  it('accepts catalogue codes once each, an empty list, and refuses unknown codes as a validation issue', () => {
    expect(assertLocations(['us-east', 'us-east', 'eu-west'], ['eu-west', 'us-east'])).to.deep.equal(['us-east', 'eu-west']);
    expect(assertLocations([], ['eu-west'])).to.deep.equal([]);
    expectAppError(() => assertLocations(['mars-1'], ['eu-west']), 'validationFailed');
  });

  it('defaults a new monitor to the catalogue locations some live process serves, in catalogue order', () => {
    expect(defaultLocations(['eu-west', 'us-east', 'ap-southeast'], ['heartbeat', 'ap-southeast', 'eu-west'])).to.deep.equal([
      'eu-west',
      'ap-southeast',
    ]);
  });

  it('defaults to the whole catalogue while no live process serves any of it', () => {
    expect(defaultLocations(['eu-west', 'us-east'], [])).to.deep.equal(['eu-west', 'us-east']);
    expect(defaultLocations(['eu-west', 'us-east'], ['heartbeat', 'retired-region'])).to.deep.equal(['eu-west', 'us-east']);
  });
});
