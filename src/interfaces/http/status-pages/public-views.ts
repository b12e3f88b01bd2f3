import cookieParser from 'cookie-parser';
import type { RequestHandler } from 'express';
import { customDomainOf } from '../shared/http-context';
import { servePublicStatusPage, servePublicStatusPageFromMemory, type PublicFormat } from './public-page';
import type { PublicPageUse } from './public-page-needs';

/** /status/{slug} and its JSON, feed and badge, with a slug as pages can have one (anything else takes the usual way). */
const VIEW = /^\/status\/([a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)(?:\/(index\.json|feed\.atom|badge\.svg))?$/;
const FORMATS: Record<string, PublicFormat> = { 'index.json': 'json', 'feed.atom': 'atom', 'badge.svg': 'badge' };

/**
 * Page views (GET and HEAD) answered before the body parsers, the cookie parser and the route table:
 * a view reads no body (the page is built once per change and kept), so these would be most of its
 * cost. Mounted after the request log (request ids) and the host resolution;
 * errors go on to the error handler (the envelope). A view of a page kept built and fresh creates no
 * database context (`servePublicStatusPageFromMemory`). Cookies are parsed only when some are sent (a
 * private page's access cookie). Form posts (password, subscribe) and the routes' OpenAPI
 * declarations stay in the route table, which also answers anything this does not match.
 * `serveHost` answers the views of a status page on its own domain (`/`, `/index.json`...).
 */
export function publicStatusPageViews(use: PublicPageUse, serveHost: RequestHandler): RequestHandler {
  const cookies = cookieParser();
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const onHost = customDomainOf(res)?.kind === 'statusPage';
    const match = onHost ? null : VIEW.exec(req.path);
    if (!onHost && !match) return next();
    const serve = () => {
      const [, slug, file] = match ?? [];
      const format = file ? FORMATS[file]! : 'html';
      // Most views find the page built and fresh in memory: answered at once, without a database context.
      if (!onHost && servePublicStatusPageFromMemory(use, req, res, { slug: slug! }, `/status/${slug}`, format)) return;
      if (onHost) return serveHost(req, res, next);
      servePublicStatusPage(use, req, res, { slug: slug! }, `/status/${slug}`, format).catch(next);
    };
    if (req.headers.cookie) cookies(req, res, serve);
    else serve();
  };
}
