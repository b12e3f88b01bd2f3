import { expect } from 'chai';
import { auditRetentionCutoff } from '../../../../src/domain/audit/audit-entry';

describe('auditRetentionCutoff', () => {
  it('is the given number of whole days before now', () => {
    expect(auditRetentionCutoff(new Date('2026-11-24T12:00:00Z'), 365).toISOString()).to.equal('2025-11-24T12:00:00.000Z');
  });

  it('refuses a retention below one day or not a whole number', () => {
    for (const days of [0, -1, 1.5]) expect(() => auditRetentionCutoff(new Date(), days)).to.throw(RangeError);
  });
});
