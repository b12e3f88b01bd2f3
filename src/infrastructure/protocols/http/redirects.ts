import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { ConnectTo } from '../../../domain/shared/network/connect-host';
import { ProbeError } from '../shared/probe-error';
import type { SharedTlsContext } from '../shared/tls-context';
import { exchange, type ExchangeRequest, type ExchangeResponse } from './http-exchange';

/** The hops taken, and when the phases of the latest connection that answered ended (performance.now() instants). */
export interface HopTrail {
  hops: { url: string; status: number }[];
  dnsAt: number | null;
  connectAt: number | null;
  tlsAt: number | null;
}

/** A trail before any hop. */
export const emptyTrail = (): HopTrail => ({ hops: [], dnsAt: null, connectAt: null, tlsAt: null });

export interface FollowRequest extends Omit<ExchangeRequest, 'url' | 'connectTo'> {
  url: URL;
  follow: boolean;
  maxRedirects: number;
  /** Applies to hops on the original origin only. */
  connectTo?: ConnectTo | null;
}

const REDIRECT = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/**
 * Follows redirects hop by hop. Every hop is a new exchange, so the target policy vets (and pins)
 * every host a redirect names: a public site cannot redirect the checker into a private network.
 */
export async function followRedirects(
  policy: TargetPolicy,
  tls: SharedTlsContext,
  request: FollowRequest,
  trail: HopTrail,
): Promise<{ url: URL; response: ExchangeResponse }> {
  const origin = request.url.origin;
  let url = request.url;
  let method = request.method;
  let body = request.body;
  let headers = request.headers;
  for (let hop = 0; ; hop++) {
    const response = await exchange(policy, tls, {
      ...request,
      url,
      method,
      body,
      headers,
      connectTo: url.origin === origin ? request.connectTo : undefined,
    });
    trail.dnsAt = response.timings.dnsAt;
    trail.connectAt = response.timings.connectAt;
    trail.tlsAt = response.timings.tlsAt;
    const location = response.headers.location;
    if (!request.follow || !REDIRECT.has(response.status) || !location) return { url, response };
    if (hop >= request.maxRedirects) throw new ProbeError('tooManyRedirects', `More than ${request.maxRedirects} redirects`);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new ProbeError('invalidRedirect', `Unusable redirect location: ${location}`);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new ProbeError('invalidRedirect', `Redirect to a ${next.protocol} address`);
    }
    trail.hops.push({ url: next.toString(), status: response.status });
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = method === 'HEAD' ? 'HEAD' : 'GET';
      body = null;
    }
    if (next.origin !== url.origin) {
      headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())));
    }
    url = next;
  }
}
