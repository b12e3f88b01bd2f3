import { expect } from 'chai';
import {
  evaluateHttp,
  httpsRedirectProbeUrl,
  isStatusPattern,
  statusMatches,
  type HttpObservation,
} from '../../../../src/domain/checks/http-assertions';
import type { HttpAssertions } from '../../../../src/domain/checks/check-request';

const none: HttpAssertions = {
  expectedStatusCodes: null,
  keyword: null,
  minPageSize: null,
  maxPageSize: null,
  maxResponseTimeMs: null,
  ssl: null,
  httpsRedirect: false,
};
const seen: HttpObservation = { status: 200, bodyText: 'Hello World', bodyBytes: 11, totalMs: 50, redirectedToHttps: null };
const codes = (a: Partial<HttpAssertions>, s: Partial<HttpObservation> = {}) =>
  evaluateHttp({ ...none, ...a }, { ...seen, ...s }).map((f) => `${f.status}:${f.code}`);

describe('HTTP assertions', () => {
  it('matches exact codes, classes and ranges', () => {
    expect(statusMatches(204, ['2xx'])).to.equal(true);
    expect(statusMatches(301, ['200', '300-399'])).to.equal(true);
    expect(statusMatches(404, ['200-399'])).to.equal(false);
    expect(isStatusPattern('2xx')).to.equal(true);
    expect(isStatusPattern('299-200')).to.equal(false);
    expect(isStatusPattern('abc')).to.equal(false);
  });
  it('is down for an unexpected status, and ignores status when not checked', () => {
    expect(codes({ expectedStatusCodes: ['2xx'] }, { status: 500 })).to.deep.equal(['down:unexpectedStatus']);
    expect(codes({}, { status: 500 })).to.deep.equal([]);
  });
  it('checks a keyword present or absent, case-insensitively when asked', () => {
    expect(codes({ keyword: { value: 'hello', mode: 'present', caseSensitive: false } })).to.deep.equal([]);
    expect(codes({ keyword: { value: 'hello', mode: 'present', caseSensitive: true } })).to.deep.equal(['down:keywordMissing']);
    expect(codes({ keyword: { value: 'World', mode: 'absent', caseSensitive: true } })).to.deep.equal(['down:keywordFound']);
  });
  it('bounds the page size on both sides', () => {
    expect(codes({ minPageSize: 12 })).to.deep.equal(['down:pageTooSmall']);
    expect(codes({ minPageSize: 11, maxPageSize: 11 })).to.deep.equal([]);
    expect(codes({ maxPageSize: 10 })).to.deep.equal(['down:pageTooLarge']);
  });
  it('is degraded above the response-time threshold only', () => {
    expect(codes({ maxResponseTimeMs: 50 })).to.deep.equal([]);
    expect(codes({ maxResponseTimeMs: 49 })).to.deep.equal(['degraded:responseTooSlow']);
  });
  it('is down when the plain address does not redirect to https', () => {
    expect(codes({ httpsRedirect: true }, { redirectedToHttps: false })).to.deep.equal(['down:httpsRedirectMissing']);
    expect(codes({ httpsRedirect: true }, { redirectedToHttps: true })).to.deep.equal([]);
  });
  it('probes the http: twin of an https url on the default port', () => {
    expect(httpsRedirectProbeUrl('https://example.com:8443/a?b=1')).to.equal('http://example.com/a?b=1');
    expect(httpsRedirectProbeUrl('http://example.com/x')).to.equal('http://example.com/x');
  });
});
