import type { CheckContext } from '../../src/application/checks/ports';
import { CheckDeadline } from '../../src/application/checks/check-deadline';
import type { HttpAssertions, HttpCheckRequest } from '../../src/domain/checks/check-request';

/** What the protocol tests' checkers send as User-Agent (the service builds its own from package.json and PUBLIC_BASE_URL). */
export const TEST_USER_AGENT = 'MonitoringService/1.0.0 (+http://checks.test.example)';

/** A context with a deadline, days counted from now (or `now`). */
export const checkContext = (timeoutMs = 5_000, now = new Date()): CheckContext => ({ deadline: CheckDeadline.after(timeoutMs), now });

export const NO_ASSERTIONS: HttpAssertions = {
  expectedStatusCodes: null,
  keyword: null,
  minPageSize: null,
  maxPageSize: null,
  maxResponseTimeMs: null,
  ssl: null,
  httpsRedirect: false,
};

/** A GET website check with default assertions (2xx/3xx expected); override anything. */
export function anHttpCheck(
  url: string,
  overrides: Partial<Omit<HttpCheckRequest, 'assertions'>> & { assertions?: Partial<HttpAssertions> } = {},
): HttpCheckRequest {
  const { assertions, ...rest } = overrides;
  return {
    kind: 'http',
    url,
    method: 'GET',
    headers: {},
    body: null,
    timeoutSeconds: 5,
    followRedirects: true,
    maxRedirects: 5,
    connectTo: null,
    connectTlsInsecure: false,
    ...rest,
    assertions: { ...NO_ASSERTIONS, expectedStatusCodes: ['2xx', '3xx'], ...assertions },
  };
}
