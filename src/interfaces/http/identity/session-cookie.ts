import type { CookieOptions, Response } from 'express';
import { SESSION_LIFETIME_MS } from '../../../domain/identity/session';
import { SESSION_COOKIE } from '../shared/http-context';

/** The cookie options every identity cookie uses (HttpOnly, lax, the whole site). */
export const identityCookie = (secure: boolean, maxAge: number): CookieOptions => ({
  httpOnly: true,
  sameSite: 'lax',
  secure,
  path: '/',
  maxAge,
});

/** Sets the session cookie of a sign-in (sign-up, sign-in, its second factor, an accepted invitation). */
export const startSession = (res: Response, token: string, secure: boolean): void => {
  res.cookie(SESSION_COOKIE, token, identityCookie(secure, SESSION_LIFETIME_MS));
};
