import type { CookieOptions, Response } from 'express';
import { SESSION_LIFETIME_MS } from '../../../domain/identity/session';
import { SESSION_COOKIE, SIGNED_IN_COOKIE } from '../shared/http-context';

/** The cookie options every identity cookie uses (HttpOnly, lax, the whole site). */
export const identityCookie = (secure: boolean, maxAge: number): CookieOptions => ({
  httpOnly: true,
  sameSite: 'lax',
  secure,
  path: '/',
  maxAge,
});

/** The signed-in marker's options: the session cookie's, readable by the console's script. */
export const signedInMarker = (secure: boolean, maxAge = SESSION_LIFETIME_MS): CookieOptions => ({
  ...identityCookie(secure, maxAge),
  httpOnly: false,
});

/**
 * Sets the session cookie of a sign-in (sign-up, sign-in, its second factor, an accepted invitation,
 * single sign-on), and beside it the marker `wsm_signed_in=1` the console reads (no secret in it).
 */
export const startSession = (res: Response, token: string, secure: boolean): void => {
  res.cookie(SESSION_COOKIE, token, identityCookie(secure, SESSION_LIFETIME_MS));
  res.cookie(SIGNED_IN_COOKIE, '1', signedInMarker(secure));
};

/** Clears the session cookie and its marker (sign-out). */
export const endSession = (res: Response): void => {
  res.clearCookie(SESSION_COOKIE, { path: '/' });
  res.clearCookie(SIGNED_IN_COOKIE, { path: '/' });
};
