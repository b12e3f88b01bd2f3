import type { Request, Response } from 'express';
import type { ActiveHost } from '../../../application/custom-domains/ports';
import type { Caller } from '../../../application/identity/authenticate-caller';

export const SESSION_COOKIE = 'wsm_session';
/**
 * Not a secret and not HttpOnly: `1` beside the session cookie, set and cleared with it, so the
 * console (which cannot read the HttpOnly session cookie) knows whether to ask for the session at all.
 */
export const SIGNED_IN_COOKIE = 'wsm_signed_in';
export const TWO_FACTOR_COOKIE = 'wsm_two_factor';

/** Per-request state the host attaches: the resolved caller and how its credential arrived. */
export interface RequestAuth {
  caller?: Caller;
  /** Why credentials that were sent did not authenticate (answered by routes that need a caller). */
  failure?: unknown;
  viaCookie: boolean;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: RequestAuth;
    }
  }
}

/** The credential of a request: a bearer token first, else the session cookie. */
export function credentialOf(req: Request): { token: string | undefined; viaCookie: boolean } {
  const header = req.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return { token: match?.[1] ?? '', viaCookie: false };
  }
  const cookie = (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
  return { token: cookie, viaCookie: cookie !== undefined };
}

/** The active custom domain a request came in under (set by the custom domains' host routing), if any. */
export const customDomainOf = (res: Response): ActiveHost | undefined => res.locals.customDomain as ActiveHost | undefined;

/** Marks a request as come in under an active custom domain (the custom domains' host routing does). */
export function setCustomDomain(res: Response, host: ActiveHost): void {
  res.locals.customDomain = host;
}

/** The theme colour the console's page is dressed in under the request's host (a white-label domain's accent), if any. */
export const pageThemeColorOf = (res: Response): string | undefined => res.locals.pageThemeColor as string | undefined;

/** Dresses the console's page of this request in a theme colour (`#rrggbb`; the custom domains' console theme does). */
export function setPageThemeColor(res: Response, color: string): void {
  res.locals.pageThemeColor = color;
}
