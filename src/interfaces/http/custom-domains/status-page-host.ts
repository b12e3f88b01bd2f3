import type { NextFunction, Request, Response } from 'express';
import { AppError, isAppError } from '../../../domain/shared/app-error';
import type { ActiveHost } from '../../../application/custom-domains/ports';
import { ACCESS_COOKIE, servePublicStatusPage, type PublicFormat } from '../status-pages/public-page';
import { publicSubscriptions } from '../status-pages/public-subscriptions';
import type { PublicPageUse } from '../status-pages/public-page-needs';
import type { StatusPageHost } from './host-routing';

/** What a status page host answers besides the page at `/`: the same as under /status/{slug}. */
const FORMATS: Record<string, PublicFormat> = { '/': 'html', '/index.json': 'json', '/feed.atom': 'atom', '/badge.svg': 'badge' };
const ACCESS_LIFETIME_MS = 7 * 86_400_000;

/**
 * A status page on its own domain: the page at `/` with its JSON, feed and badge beside it, the
 * private page's password form posting to `/login`, and subscribing, confirming and unsubscribing
 * at `/subscribe`, `/confirm` and `/unsubscribe`, as /status/{slug} has them (links are relative to
 * the domain's root, and messages to subscribers link here). Anything else there is 404.
 */
export function publicStatusPageHost(use: PublicPageUse): StatusPageHost {
  const subscriptions = publicSubscriptions(use);
  return {
    serve(host: ActiveHost, req: Request, res: Response, next: NextFunction) {
      const page = host.statusPage;
      if (!page) return next(new AppError('routeNotFound'));
      const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
      const ref = { pageId: page.rowId };
      const format = FORMATS[path];
      const reading = req.method === 'GET' || req.method === 'HEAD';
      let work: Promise<void>;
      if (format && reading) work = servePublicStatusPage(use, req, res, ref, '', format);
      else if (path === '/login' && req.method === 'POST') work = signIn(use, req, res, ref);
      else if (path === '/subscribe' && req.method === 'POST') work = subscriptions.subscribe(req, res, ref);
      else if (path === '/confirm' && reading) work = subscriptions.confirm(req, res, ref);
      else if (path === '/unsubscribe' && reading) work = Promise.resolve(subscriptions.showUnsubscribe(req, res, ''));
      else if (path === '/unsubscribe' && req.method === 'POST') work = subscriptions.unsubscribe(req, res, ref);
      else return next(new AppError('routeNotFound'));
      work.catch(next);
    },
  };
}

/** The password form's target: the access cookie for the whole domain, then back to the page (JSON bodies: 204 or 401). */
async function signIn(use: PublicPageUse, req: Request, res: Response, ref: { pageId: number }): Promise<void> {
  const settings = use.statusPageHttpSettings;
  const password = typeof req.body?.password === 'string' ? req.body.password : '';
  const form = req.is('application/x-www-form-urlencoded') !== false;
  try {
    const { token } = await use.signInToStatusPage.execute(ref, { password, ip: req.ip }, (lockout) =>
      req.log?.warn({ statusPageLockout: lockout }, 'status page password attempts locked out'),
    );
    res.cookie(ACCESS_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: settings.secureCookies,
      path: '/',
      maxAge: ACCESS_LIFETIME_MS,
    });
    if (form) res.redirect(303, '/');
    else res.status(204).end();
  } catch (error) {
    if (!form || !isAppError(error) || error.code !== 'statusPagePasswordInvalid') throw error;
    res.redirect(303, '/?wrong=1');
  }
}
