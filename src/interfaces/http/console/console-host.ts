import type { Express, RequestHandler } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SESSION_COOKIE, SIGNED_IN_COOKIE, pageThemeColorOf } from '../shared/http-context';
import { signedInMarker } from '../identity/session-cookie';

/** Where the console is served. */
export const CONSOLE_PATH = '/app';

/**
 * The console's policy: its own scripts, styles and API only; no inline code, no eval, no other
 * origin, not framed. Every asset comes from this host, the service worker (/app/sw.js) too.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The built console (dist/console, from scripts/build-console.cjs), found beside this file whether
 * it runs compiled (dist/src/...) or through tsx (src/...); undefined when it was not built.
 */
export function builtConsoleDir(): string | undefined {
  const candidates = [path.resolve(__dirname, '../../../../console'), path.resolve(__dirname, '../../../../dist/console')];
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html')) && existsSync(path.join(dir, 'assets')));
}

/** Whether a path is the console's page (one of its screens), not one of its files (assets, icons, the worker). */
export function isConsolePage(path: string): boolean {
  if (path !== CONSOLE_PATH && !path.startsWith(`${CONSOLE_PATH}/`)) return false;
  if (path === `${CONSOLE_PATH}/sw.js`) return false;
  return !['/assets/', '/icons/'].some((folder) => path.startsWith(`${CONSOLE_PATH}${folder}`));
}

/** The page with its `theme-color` set to `color` (`#rrggbb`). */
export const withThemeColor = (page: string, color: string): string =>
  page.replace(/(<meta name="theme-color" content=")[^"]*(")/, `$1${color}$2`);

const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('content-security-policy', CONSOLE_CSP);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  res.setHeader('x-frame-options', 'DENY');
  next();
};

/** The console's icon as its page links it (`/app/assets/icon-<hash>.svg`), read from the built page. */
export function consoleIconPath(index: string): string | undefined {
  return /<link rel="icon"[^>]* href="(\/app\/assets\/[\w.-]+\.svg)"/.exec(readFileSync(index, 'utf8'))?.[1];
}

/**
 * Keeps the console's signed-in marker (`wsm_signed_in=1`, not a secret, readable by its script) in
 * step with the HttpOnly session cookie as the page is loaded: set where the session cookie came
 * without any marker (a session opened before the marker existed), cleared where it came alone (the
 * session cookie expired in the browser). The console asks for the session only when the marker is
 * `1`, and writes `0` when the service refused the session cookie (revoked): left alone here, so a
 * dead cookie is not asked about at every load.
 */
const syncSignedInMarker =
  (secureCookies: boolean): RequestHandler =>
  (req, res, next) => {
    const cookies = (req.cookies ?? {}) as Record<string, string>;
    const session = cookies[SESSION_COOKIE] !== undefined;
    if (session && cookies[SIGNED_IN_COOKIE] === undefined) res.cookie(SIGNED_IN_COOKIE, '1', signedInMarker(secureCookies));
    if (!session && cookies[SIGNED_IN_COOKIE] !== undefined) res.clearCookie(SIGNED_IN_COOKIE, { path: '/' });
    next();
  };

/**
 * Serves the console at /app: its hashed assets (cached for a year; each as the Brotli or gzip file
 * written beside it at build when the browser accepts one, Vary: Accept-Encoding), and its page for
 * every other path under /app (the console routes in the browser), never cached (compressed by the
 * host's answer compression), with the signed-in marker kept in step; its `theme-color` is the one the
 * host's branding set for the request (a white-label domain's accent), if any. `/favicon.ico` (asked for by
 * pages that link no icon) is sent to the console's icon. Answers whether it is mounted.
 */
export function mountConsole(
  app: Express,
  dir: string | undefined = builtConsoleDir(),
  options: { secureCookies?: boolean } = {},
): boolean {
  if (!dir) return false;
  const index = path.join(dir, 'index.html');
  const assets = `${CONSOLE_PATH}/assets/`;
  app.use(
    assets,
    securityHeaders,
    expressStaticGzip(path.join(dir, 'assets'), {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: { index: false, maxAge: '365d', immutable: true },
    }),
  );
  // The service worker (never cached: a new one must be seen at once) and the icons the manifest names.
  const worker = path.join(dir, 'sw.js');
  if (existsSync(worker))
    app.get(`${CONSOLE_PATH}/sw.js`, securityHeaders, (_req, res) => {
      res.setHeader('cache-control', 'no-cache');
      res.setHeader('content-type', 'text/javascript; charset=utf-8');
      res.sendFile(worker);
    });
  app.use(
    `${CONSOLE_PATH}/icons/`,
    securityHeaders,
    expressStaticGzip(path.join(dir, 'icons'), { index: false, serveStatic: { index: false, maxAge: '1d' } }),
  );
  // A missing asset goes on to the host's 404; any other path is one of the console's screens.
  const icon = consoleIconPath(index);
  if (icon) app.get('/favicon.ico', (_req, res) => res.set('cache-control', 'no-cache').redirect(302, icon));
  const marker = syncSignedInMarker(options.secureCookies ?? false);
  app.get([CONSOLE_PATH, `${CONSOLE_PATH}/*path`], securityHeaders, marker, async (req, res, next) => {
    if (!isConsolePage(req.path)) return next();
    res.setHeader('cache-control', 'no-cache');
    const color = pageThemeColorOf(res);
    if (!color) return res.sendFile(index);
    try {
      res.type('html').send(withThemeColor(await readFile(index, 'utf8'), color));
    } catch (error) {
      next(error);
    }
  });
  return true;
}
