import type { TargetPolicy } from '../../application/shared/target-policy';
import { CheckDeadline } from '../../application/checks/check-deadline';
import { exchange } from '../protocols/http/http-exchange';
import type { SharedTlsContext } from '../protocols/shared/tls-context';

const TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 512 * 1024;

/**
 * A `fetch` for client libraries (openid-client, the JWKS read) whose every request goes through the
 * target policy on a pinned connection, with a deadline and a bounded body, redirects not followed.
 */
export function policyFetch(policy: TargetPolicy, tls: SharedTlsContext, userAgent: string) {
  return async (input: string | URL, init: { method?: string; headers?: unknown; body?: unknown } = {}): Promise<Response> => {
    const url = new URL(String(input));
    const headers: Record<string, string> = {};
    new Headers(init.headers as ConstructorParameters<typeof Headers>[0]).forEach((value, name) => (headers[name] = value));
    const body = init.body === undefined || init.body === null ? null : String(init.body);
    const { deadline, clear } = CheckDeadline.within(TIMEOUT_MS);
    try {
      const response = await exchange(policy, tls, {
        url,
        method: init.method ?? 'GET',
        headers,
        body,
        userAgent,
        keepBodyBytes: MAX_BODY_BYTES,
        countLimit: MAX_BODY_BYTES,
        deadline,
        certificateAt: null,
        requireVerifiedTls: true,
      });
      const answer = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) answer.append(name, v);
      }
      const status = response.status;
      const nullBody = status === 204 || status === 304 || (status >= 300 && status < 400);
      return new Response(nullBody ? null : (response.body ?? Buffer.alloc(0)), { status, headers: answer });
    } finally {
      clear();
    }
  };
}
