import type { Request, RequestHandler } from 'express';
import type { AuthenticateCaller } from '../../../application/identity/authenticate-caller';
import { credentialOf } from './http-context';
import type { Gate, GateRequest } from './gates';

/**
 * Authentication and the access gates, for every request under /api that carries credentials,
 * before routing: a closed area answers its gate's code whether or not a route exists there.
 * Credentials that fail to authenticate are remembered, not thrown: public routes (sign-in) ignore
 * them and routes that need a caller answer 401.
 */
export function admission(authenticate: AuthenticateCaller, gates: Gate[]): RequestHandler {
  return async (req, _res, next) => {
    const { token, viaCookie } = credentialOf(req);
    if (token === undefined) {
      req.auth = { viaCookie };
      return next();
    }
    try {
      const caller = await authenticate.execute(token);
      req.auth = { caller, viaCookie };
    } catch (failure) {
      req.auth = { failure, viaCookie };
      return next();
    }
    try {
      const request = gateRequestOf(req, viaCookie);
      for (const gate of gates) await gate(req.auth.caller!, request);
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** What the access gates see of a request. */
export function gateRequestOf(req: Request, viaCookie: boolean): GateRequest {
  const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
  return {
    method: req.method,
    path: `${req.baseUrl}${path === '/' ? '' : path}` || '/',
    viaCookie,
    origin: req.headers.origin,
    secFetchSite: req.headers['sec-fetch-site'] as string | undefined,
    ownOrigin: () => `${req.protocol}://${req.get('host') ?? ''}`,
  };
}
