import type { Request, RequestHandler } from 'express';
import { AppError } from '../../../domain/shared/app-error';
import type { PlatformSettings } from '../../../application/identity/ports';

const DISCOVERY = new Set([
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-protected-resource',
  '/.well-known/jwks.json',
  '/auth.md',
]);
/** Answer 503 while agent auth is off. */
const SWITCHED = [/^\/agent\/identity(\/.*)?$/, /^\/oauth2\/token$/];
/**
 * Served on the canonical host whatever the switch says (revocation and security events must keep
 * working; /mcp serves API tokens too, and refuses agent tokens per call through the agent gate).
 */
const ALWAYS = [/^\/agent(\/.*)?$/, /^\/oauth2(\/.*)?$/, /^\/mcp$/];

/** Agent endpoints and discovery documents: served on the canonical host only. */
export const isCanonicalOnlyPath = (path: string): boolean => DISCOVERY.has(path) || ALWAYS.some((pattern) => pattern.test(path));

/**
 * The host a request was for, port included: the Host header, or, when the peer is a proxy named in
 * TRUST_PROXY (Express's trust proxy), the last X-Forwarded-Host value, the one that proxy wrote
 * (earlier ones came from its client; custom-domain routing reads the header the same way).
 */
const hostOf = (req: Request): string => {
  const forwarded = req.get('x-forwarded-host');
  const trusts = req.app.get('trust proxy fn') as ((address: string, hop: number) => boolean) | undefined;
  const viaProxy = forwarded !== undefined && trusts?.(req.socket.remoteAddress ?? '', 0) === true;
  return ((viaProxy ? forwarded.split(',').at(-1)!.trim() : req.get('host')) ?? '').toLowerCase();
};

/**
 * Agent endpoints and discovery documents exist only on the canonical host (PUBLIC_BASE_URL's):
 * elsewhere, a custom domain for instance, they answer 404 without a code, before authentication.
 * Discovery also answers 404 while agent auth is off; /agent/identity and /oauth2/token answer 503.
 */
export function canonicalHostGuard(publicBaseUrl: string, switches: () => Promise<PlatformSettings>): RequestHandler {
  const canonicalHost = new URL(publicBaseUrl).host.toLowerCase();
  return async (req, _res, next) => {
    const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
    const discovery = DISCOVERY.has(path);
    const switched = SWITCHED.some((pattern) => pattern.test(path));
    if (!discovery && !switched && !ALWAYS.some((pattern) => pattern.test(path))) return next();
    try {
      if (hostOf(req) !== canonicalHost) throw new AppError('routeNotFound');
      if ((discovery || switched) && !(await switches()).agentAuthEnabled) {
        throw new AppError(discovery ? 'routeNotFound' : 'agentAuthUnavailable');
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** The per-caller key of unauthenticated agent endpoints: the client address. */
export const callerKey = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';
