import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { isAppError } from '../../../domain/shared/app-error';
import type { GetPublicStatusPage, PublicPageAnswer, PublicPageRef } from '../../../application/status-pages/get-public-status-page';
import type { PublicStatusPage } from '../../../application/status-pages/public-status-page';
import { renderMessage, renderPasswordForm, renderPublicHtml } from './public-html';
import { presentPublicPage } from './public-json';
import { renderAtom, renderBadge } from './public-feed';
import type { StatusPageHttpSettings } from './settings';
import type { PublicPageUse } from './public-page-needs';
import { sendError } from '../shared/envelope';
import { MESSAGES } from '../shared/messages';

/**
 * A client that reads JSON gets every refusal in the error envelope: the JSON formats, and the
 * page's address asked with `Accept: application/json` rather than HTML.
 */
const wantsJson = (req: Request, format: PublicFormat) =>
  format === 'json' || (format === 'html' && req.accepts(['html', 'json']) === 'json');

export type PublicFormat = 'html' | 'json' | 'atom' | 'badge';

const CONTENT_TYPES: Record<PublicFormat, string> = {
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  badge: 'image/svg+xml; charset=utf-8',
};

/** The access cookie of private pages (its Path is the page's, so pages do not see each other's). */
export const ACCESS_COOKIE = 'status_page_access';

interface Rendered {
  body: Buffer;
  etag: string;
}

/** Rendered bytes per built model and format: a model is rendered at most once per format and base. */
const rendered = new WeakMap<PublicStatusPage, Map<string, Rendered>>();

function render(model: PublicStatusPage, format: PublicFormat, base: string, origin: string): Rendered {
  let byFormat = rendered.get(model);
  if (!byFormat) rendered.set(model, (byFormat = new Map()));
  const key = `${format}|${base}|${format === 'atom' ? origin : ''}`;
  let entry = byFormat.get(key);
  if (!entry) {
    const text =
      format === 'html'
        ? renderPublicHtml(model, base)
        : format === 'json'
          ? JSON.stringify(presentPublicPage(model))
          : format === 'atom'
            ? renderAtom(model, `${origin}${base}/feed.atom`, `${origin}${base || '/'}`)
            : renderBadge(model);
    const body = Buffer.from(text);
    entry = { body, etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"` };
    byFormat.set(key, entry);
  }
  return entry;
}

const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const sendText = (res: Response, status: number, type: PublicFormat, text: string) =>
  res
    .status(status)
    .set({ ...SECURITY_HEADERS, 'content-type': CONTENT_TYPES[type], 'cache-control': 'no-store' })
    .send(text);

/** The use case and settings, resolved once per host: a page view should cost little more than sending bytes. */
const resolved = new WeakMap<PublicPageUse, { visit: GetPublicStatusPage; settings: StatusPageHttpSettings }>();
function dependencies(use: PublicPageUse) {
  let found = resolved.get(use);
  if (!found) {
    found = { visit: use.getPublicStatusPage, settings: use.statusPageHttpSettings };
    resolved.set(use, found);
  }
  return found;
}

/**
 * Serves a status page to a visitor: `ref` picks the page (by slug, or by id on its custom domain),
 * `base` is the path it answers under ('/status/{slug}', or '' on its own domain). Public pages are
 * cacheable by browsers and CDNs (ETag, Cache-Control public); private ones are not stored.
 */
export async function servePublicStatusPage(
  use: PublicPageUse,
  req: Request,
  res: Response,
  ref: PublicPageRef,
  base: string,
  format: PublicFormat,
): Promise<void> {
  const { visit, settings } = dependencies(use);
  let answer;
  try {
    answer = await visit.execute(ref, { ip: req.ip, accessToken: req.cookies?.[ACCESS_COOKIE] });
  } catch (error) {
    if (
      format === 'html' &&
      !wantsJson(req, format) &&
      isAppError(error) &&
      (error.code === 'statusPageNotFound' || error.code === 'forbidden')
    ) {
      const missing = error.code === 'statusPageNotFound';
      sendText(
        res,
        missing ? 404 : 403,
        'html',
        renderMessage(
          missing ? 'Status page not found' : 'Not available',
          missing ? 'There is no status page at this address.' : 'This status page is not shown to your network.',
        ),
      );
      return;
    }
    throw error;
  }
  send(settings, req, res, answer, base, format);
}

/**
 * A view answered from the page kept in memory (`GetPublicStatusPage.fromMemory`), without a database
 * context; false when the page must be read or rebuilt first (then `servePublicStatusPage`).
 */
export function servePublicStatusPageFromMemory(
  use: PublicPageUse,
  req: Request,
  res: Response,
  ref: PublicPageRef,
  base: string,
  format: PublicFormat,
): boolean {
  const { visit, settings } = dependencies(use);
  const answer = visit.fromMemory(ref, { ip: req.ip, accessToken: req.cookies?.[ACCESS_COOKIE] });
  if (!answer) return false;
  send(settings, req, res, answer, base, format);
  return true;
}

function send(
  settings: StatusPageHttpSettings,
  req: Request,
  res: Response,
  answer: PublicPageAnswer,
  base: string,
  format: PublicFormat,
): void {
  if (answer.kind === 'passwordRequired') {
    if (wantsJson(req, format)) {
      res.set(SECURITY_HEADERS);
      sendError(req, res, 401, { code: 'statusPagePasswordRequired', passwordRequired: true }, MESSAGES.statusPagePasswordRequired);
      return;
    }
    if (format === 'badge') {
      sendText(res, 401, 'badge', '');
      return;
    }
    sendText(res, 401, 'html', renderPasswordForm(answer.page, base, req.query.wrong === '1'));
    return;
  }
  const origin = settings.publicBaseUrl;
  const { body, etag } = render(answer.model, format, base, origin);
  const isPrivate = answer.model.page.isPrivate;
  res.set({
    ...SECURITY_HEADERS,
    'content-type': CONTENT_TYPES[format],
    etag,
    'cache-control': isPrivate
      ? 'private, no-cache'
      : `public, max-age=${settings.maxAgeSeconds}, stale-while-revalidate=${settings.maxAgeSeconds * 6}`,
    ...((format === 'badge' || format === 'json') && !isPrivate ? { 'access-control-allow-origin': '*' } : {}),
    ...(isPrivate ? { vary: 'Cookie' } : {}),
  });
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.status(200).send(body);
}
