import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../../../domain/shared/app-error';
import { cidrContains, parseCidr, type Cidr } from '../../../domain/shared/network/cidr';
import { parseIpAddress } from '../../../domain/shared/network/ip-address';
import { hostnameOfHostHeader, normalizeClaimHostname } from '../../../domain/custom-domains/hostname';
import type { ActiveHost } from '../../../application/custom-domains/ports';
import { isCanonicalOnlyPath } from '../agent-access/canonical-host';
import { customDomainOf, setCustomDomain } from '../shared/http-context';

/** Serves a `statusPage` host: the page of `host.statusPage` at `/` (and what goes with it), or next(error). */
export interface StatusPageHost {
  serve(host: ActiveHost, req: Request, res: Response, next: NextFunction): void;
}

export interface HostRoutingOptions {
  /** PUBLIC_BASE_URL's hostname: never looked up. */
  canonicalHostname: string;
  /** TRUST_PROXY: peers whose X-Forwarded-Host is believed. */
  trustProxy: readonly string[];
  find(hostname: string): Promise<ActiveHost | null>;
  statusPageHost: StatusPageHost;
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
 * Routing by host, in two steps. `resolve`, early (before body parsing and authentication): a request
 * whose host is an active custom domain is marked as that tenant's, and agent endpoints and discovery
 * documents answer 404 without a code there (the spec serves them on the canonical host only); any
 * other host goes on as before. `serveStatusPages`, once cookies and bodies are parsed: a status page
 * host answers every path with its page (a white-label host goes on to the API as usual).
 */
export function customDomainRouting(options: HostRoutingOptions): { resolve: RequestHandler; serveStatusPages: RequestHandler } {
  const trusted = options.trustProxy.map((entry) => parseCidr(entry)).filter((cidr): cidr is Cidr => cidr !== null);
  const bypass = new Set(options.bypassPaths);
  const resolve: RequestHandler = async (req, res, next) => {
    try {
      if (bypass.has(req.path)) return next();
      const hostname = requestHostname(req, trusted);
      if (hostname === null || hostname === options.canonicalHostname || normalizeClaimHostname(hostname) === null) return next();
      const host = await options.find(hostname);
      if (!host) return next();
      setCustomDomain(res, host);
      const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
      if (isCanonicalOnlyPath(path) || AGENT_CLAIM.test(path)) throw new AppError('routeNotFound');
      next();
    } catch (error) {
      next(error);
    }
  };
  const serveStatusPages: RequestHandler = (req, res, next) => {
    const host = customDomainOf(res);
    if (host?.kind !== 'statusPage') return next();
    options.statusPageHost.serve(host, req, res, next);
  };
  return { resolve, serveStatusPages };
}
