import { expect } from 'chai';
import { ERROR_STATUS } from '../../../src/interfaces/http/shared/error-statuses';
import { MESSAGES } from '../../../src/interfaces/http/shared/messages';

/**
 * Every 4xx says what was wrong (and how to fix it where that is not obvious), not just the HTTP
 * phrase: each client-error code has its own message. The one exception is the spec's
 * invalid_request of the security-event endpoint, which must not say which check failed.
 */
const SILENT_BY_SPEC = new Set(['invalid_request']);

describe('error messages', () => {
  it('has a message of its own for every code answered with a 4xx', () => {
    const bare = Object.entries(ERROR_STATUS)
      .filter(([code, status]) => status >= 400 && status < 500 && !SILENT_BY_SPEC.has(code))
      .filter(([code]) => !(MESSAGES as Record<string, string | undefined>)[code]);
    expect(
      bare.map(([code]) => code),
      'codes answering only the HTTP phrase',
    ).to.deep.equal([]);
  });

  it('says how to fix the refusals a newcomer meets first', () => {
    expect(MESSAGES.invalidUrl).to.include('CHECK_PRIVATE_ALLOWLIST');
    expect(MESSAGES.invalidHostname).to.include('CHECK_PRIVATE_ALLOWLIST');
    expect(MESSAGES.checkIntervalTooLow).to.include('package');
  });
});
