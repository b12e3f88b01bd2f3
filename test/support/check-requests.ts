import type { CheckContext } from '../../src/application/checks/ports';
import { CheckDeadline } from '../../src/application/checks/check-deadline';
import type { HttpAssertions, HttpCheckRequest } from '../../src/domain/checks/check-request';

/** A context with a deadline, days counted from now (or `now`). */
export const checkContext = (timeoutMs = 5_000, now = new Date()): CheckContext => ({ deadline: CheckDeadline.after(timeoutMs), now });

export const NO_ASSERTIONS: HttpAssertions = {
  expectedStatusCodes: null, keyword: null, minPageSize: null, maxPageSize: null, maxResponseTimeMs: null, ssl: null, httpsRedirect: false,
};

/** A GET website check with default assertions (2xx/3xx expected); override anything. */
export function anHttpCheck(url: string, overrides: Partial<Omit<HttpCheckRequest, 'assertions'>> & { assertions?: Partial<HttpAssertions> } = {}): HttpCheckRequest {
  const { assertions, ...rest } = overrides;
  return {
    kind: 'http', url, method: 'GET', headers: {}, body: null, timeoutSeconds: 5, followRedirects: true, maxRedirects: 5,
    connectHost: null, connectPort: null, connectTlsInsecure: false,
    ...rest,
    assertions: { ...NO_ASSERTIONS, expectedStatusCodes: ['2xx', '3xx'], ...assertions },
  };
}
