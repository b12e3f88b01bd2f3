import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../../../domain/shared/app-error';
import { cidrContains, parseCidr, type Cidr } from '../../../domain/shared/network/cidr';
import { parseIpAddress } from '../../../domain/shared/network/ip-address';
import { hostnameOfHostHeader, normalizeClaimHostname } from '../../../domain/custom-domains/hostname';
import type { ActiveHost } from '../../../application/custom-domains/ports';
import { isCanonicalOnlyPath } from '../agent-access/canonical-host';

/**
 * Serves a `statusPage` host: the status pages context binds one (STATUS_PAGE_HOST) and answers the
 * page at `/` (and its feeds and badge under it) for `host.statusPageId`, or calls next(error).
 * Until one is bound, every path of a status page host answers 404.
 */
export interface StatusPageHost {
  serve(host: ActiveHost, req: Request, res: Response, next: NextFunction): void;
}
export const STATUS_PAGE_HOST = Symbol.for('StatusPageHost');

/** The active custom domain a request came in under (set by customDomainRouting), if any. */
export const customDomainOf = (res: Response): ActiveHost | undefined => res.locals.customDomain as ActiveHost | undefined;

export interface HostRoutingOptions {
  /** PUBLIC_BASE_URL's hostname: never looked up. */
  canonicalHostname: string;
  /** TRUST_PROXY: peers whose X-Forwarded-Host is believed. */
  trustProxy: readonly string[];
  find(hostname: string): Promise<ActiveHost | null>;
  /** Looked up per request, so the status pages context can bind it after the app is built. */
  statusPageHost(): StatusPageHost | null;
  /** Paths never routed by host (liveness and readiness probes answer whatever the database does). */
  bypassPaths: readonly string[];
}

/** Agent claim confirmation belongs to the agent flow too: its claim URL names the canonical host. */
const AGENT_CLAIM = /^\/api\/agent-claim(\/.*)?$/;

/**
 * The host a request was sent to: the Host header, or the last X-Forwarded-Host value when the
 * connecting peer is a proxy named in TRUST_PROXY (the value that proxy wrote; earlier ones came
 * from its client). Lower case, without port; null for IP literals.
 */
export function requestHostname(req: Request, trusted: readonly Cidr[]): string | null {
  const forwarded = req.headers['x-forwarded-host'];
  if (forwarded && trusted.length > 0) {
    const peer = parseIpAddress(req.socket.remoteAddress ?? '');
    if (peer && trusted.some((cidr) => cidrContains(cidr, peer))) {
      const values = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded).split(',');
      return hostnameOfHostHeader(values[values.length - 1]);
    }
  }
  return hostnameOfHostHeader(req.headers.host);
}

/**
 * Early in the pipeline: a request whose host is an active custom domain is served as that tenant's
 * host. Agent endpoints and discovery documents answer 404 without a code there (the spec serves
 * them on the canonical host only); a status page host hands every other path to the status page;
 * a white-label host goes on to the API as usual. Any other host goes on as before.
 */
export function customDomainRouting(options: HostRoutingOptions): RequestHandler {
  const trusted = options.trustProxy.map((entry) => parseCidr(entry)).filter((cidr): cidr is Cidr => cidr !== null);
  const bypass = new Set(options.bypassPaths);
  return async (req, res, next) => {
    try {
      if (bypass.has(req.path)) return next();
      const hostname = requestHostname(req, trusted);
      if (hostname === null || hostname === options.canonicalHostname || normalizeClaimHostname(hostname) === null) return next();
      const host = await options.find(hostname);
      if (!host) return next();
      res.locals.customDomain = host;
      const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
      if (isCanonicalOnlyPath(path) || AGENT_CLAIM.test(path)) throw new AppError('routeNotFound');
      if (host.kind === 'whiteLabel') return next();
      const pages = options.statusPageHost();
      if (!pages) throw new AppError('routeNotFound');
      pages.serve(host, req, res, next);
    } catch (error) {
      next(error);
    }
  };
}
