import type { Request, Response } from 'express';
import { z } from 'zod';
import { isAppError } from '../../../domain/shared/app-error';
import { publicSubscriptions, TokenQuery } from './public-subscriptions';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { ACCESS_COOKIE, servePublicStatusPage } from './public-page';
import { publicPageNeeds } from './public-page-needs';

const tags = ['Status pages'] as const;
const SlugParams = z.object({ slug: z.string().max(64).meta({ description: "The page's slug" }) });
const ACCESS_LIFETIME_MS = 7 * 86_400_000;

export const PublicPageSchema = z
  .object({
    page: z.object({
      id: z.uuid(),
      title: z.string(),
      slug: z.string(),
      description: z.string().nullable(),
      footer: z.string().nullable(),
      brandColor: z.string(),
    }),
    status: z.object({ state: z.string(), description: z.string() }),
    groups: z.array(
      z.object({
        name: z.string(),
        state: z.string(),
        components: z.array(
          z.object({
            id: z.uuid(),
            type: z.string(),
            name: z.string(),
            state: z.string().meta({ description: 'operational, degraded, down, maintenance or unknown' }),
            responseTimeMs: z.number().nullable(),
            uptimePercent: z.number().nullable(),
            uptimeSince: z
              .string()
              .nullable()
              .meta({ description: 'When uptimePercent starts, for a monitor younger than the 90 days shown; null: over the 90 days' }),
            days: z
              .array(z.object({ date: z.string(), state: z.string(), uptimePercent: z.number().nullable() }))
              .nullable()
              .meta({ description: '90 UTC days, oldest first: up, degraded, down, maintenance or unknown (never counted as up)' }),
          }),
        ),
      }),
    ),
    incidents: z.object({ active: z.array(z.unknown()), past: z.array(z.unknown()) }),
    maintenance: z.object({ active: z.array(z.unknown()), scheduled: z.array(z.unknown()) }),
    objectives: z
      .array(
        z.object({
          id: z.uuid(),
          name: z.string(),
          subject: z.object({
            type: z.enum(['monitor', 'customer']),
            name: z.string().meta({ description: 'The monitor\'s name, "All monitors" or "Monitors tagged …"' }),
          }),
          target: z.number().meta({ description: 'Percent of known time that must be good' }),
          window: z.string().meta({ description: 'rolling7d, rolling28d, rolling30d or calendarMonth' }),
          windowStart: z.iso.datetime(),
          attainmentPercent: z.number().nullable().meta({ description: 'Good of known time over the window; null when nothing is known' }),
          met: z.boolean().nullable(),
        }),
      )
      .meta({
        description:
          'The service level objectives the page shows, measured as GET /api/service-levels/{id}/status measures them, at most a minute before generatedAt',
      }),
    generatedAt: z.iso.datetime(),
  })
  .meta({ id: 'PublicStatusPage' });

const PAGE_NOTE =
  'No authentication. A page with an IP allowlist answers 403 to other addresses; a page with a password answers 401 ' +
  'until the visitor has signed in (POST /status/{slug}/login sets a cookie). Public pages carry an ETag and Cache-Control public; ' +
  "the page is built once per change (a component's state, an incident or update, maintenance), not per view.";

/** What visitors read: the page (HTML), the same as JSON, an Atom feed and an SVG badge; and the password form's target. */
export const publicStatusPagesRouter = defineRouter(publicPageNeeds, (deps, use) => {
  const settings = () => use.statusPageHttpSettings;
  const subscriptions = publicSubscriptions(use);
  const page =
    (format: 'html' | 'json' | 'atom' | 'badge') =>
    async ({ params, req, res }: { params: { slug: string }; req: Request; res: Response }) => {
      await servePublicStatusPage(use, req, res, { slug: params.slug }, `/status/${params.slug}`, format);
      return undefined;
    };
  return new ApiRouter(deps)
    .public({
      operationId: 'getPublicStatusPageJson',
      method: 'get',
      path: '/api/public/status-pages/{slug}',
      tags,
      summary: 'A status page as JSON (public)',
      description: `Also at /status/{slug}/index.json. ${PAGE_NOTE}`,
      params: SlugParams,
      response: PublicPageSchema,
      errors: ['statusPageNotFound', 'forbidden'],
      handler: async ({ params, req, res }) => {
        await servePublicStatusPage(use, req, res, { slug: params.slug }, `/status/${params.slug}`, 'json');
        return undefined;
      },
    })
    .public({
      operationId: 'getPublicStatusPage',
      status: 200,
      method: 'get',
      path: '/status/{slug}',
      tags,
      summary: 'A status page (HTML, public)',
      description: `Server-rendered, no JavaScript and no external assets. ${PAGE_NOTE}`,
      params: SlugParams,
      errors: ['statusPageNotFound', 'forbidden'],
      handler: page('html'),
    })
    .public({
      operationId: 'getPublicStatusPageIndexJson',
      status: 200,
      method: 'get',
      path: '/status/{slug}/index.json',
      tags,
      summary: 'A status page as JSON (public)',
      description: PAGE_NOTE,
      params: SlugParams,
      errors: ['statusPageNotFound', 'forbidden'],
      handler: page('json'),
    })
    .public({
      operationId: 'getPublicStatusPageFeed',
      status: 200,
      method: 'get',
      path: '/status/{slug}/feed.atom',
      tags,
      summary: 'Incidents and maintenance of a status page (Atom feed)',
      description: PAGE_NOTE,
      params: SlugParams,
      errors: ['statusPageNotFound', 'forbidden'],
      handler: page('atom'),
    })
    .public({
      operationId: 'getPublicStatusPageBadge',
      status: 200,
      method: 'get',
      path: '/status/{slug}/badge.svg',
      tags,
      summary: 'Status badge of a status page (SVG)',
      description: `An embeddable image of the page's overall state. ${PAGE_NOTE}`,
      params: SlugParams,
      errors: ['statusPageNotFound', 'forbidden'],
      handler: page('badge'),
    })
    .public({
      operationId: 'signInToStatusPage',
      status: 204,
      method: 'post',
      path: '/status/{slug}/login',
      tags,
      summary: "Give a private status page's password",
      description:
        "A form post (application/x-www-form-urlencoded, field `password`): sets the page's access cookie for 7 days and " +
        'redirects (303) to the page; a wrong password redirects back to the form with an error. A JSON body ({password}) gets ' +
        '204 with the cookie, or 401 statusPagePasswordInvalid. Attempts are limited per client address (5 a minute, 20 an ' +
        'hour, 50 a day) and per page (60 a minute, 2,000 a day): past a limit, 429 rateLimited with Retry-After until the ' +
        'window ends, so each lock-out lasts longer than the last; lock-outs are logged.',
      params: SlugParams,
      errors: ['statusPageNotFound', 'forbidden', 'statusPagePasswordInvalid', 'rateLimited'],
      handler: async ({ params, req, res }) => {
        const password = typeof req.body?.password === 'string' ? req.body.password : '';
        const base = `/status/${params.slug}`;
        const form = req.is('application/x-www-form-urlencoded') !== false;
        try {
          const { token } = await use.signInToStatusPage.execute({ slug: params.slug }, { password, ip: req.ip }, (lockout) =>
            req.log?.warn({ statusPageLockout: lockout }, 'status page password attempts locked out'),
          );
          res.cookie(ACCESS_COOKIE, token, {
            httpOnly: true,
            sameSite: 'lax',
            secure: settings().secureCookies,
            path: base,
            maxAge: ACCESS_LIFETIME_MS,
          });
          if (form) res.redirect(303, base);
          else res.status(204).end();
        } catch (error) {
          if (!form || !isAppError(error) || error.code !== 'statusPagePasswordInvalid') throw error;
          res.redirect(303, `${base}?wrong=1`);
        }
        return undefined;
      },
    })
    .public({
      operationId: 'subscribeToStatusPage',
      method: 'post',
      path: '/status/{slug}/subscribe',
      tags,
      summary: 'Subscribe to a status page by e-mail',
      status: 202,
      description:
        "A form post or JSON ({email, componentIds}). The answer is the same whatever the address's state (202, JSON " +
        '`{status: "checkYourInbox"}`), so it tells nobody whether an address subscribes; the mail does the rest: a new or ' +
        'unconfirmed address gets the confirmation link (double opt-in, sent once; nothing else is sent before it is followed), ' +
        'a confirmed one a note that it is already subscribed with the link to stop (at most hourly). A private page must be ' +
        'readable (allowlisted address, password given) first. One client address may start 10 subscriptions per page and hour ' +
        '(429 rateLimited).',
      params: SlugParams,
      errors: ['statusPageNotFound', 'forbidden', 'rateLimited'],
      handler: async ({ params, req, res }) => {
        await subscriptions.subscribe(req, res, { slug: params.slug });
        return undefined;
      },
    })
    .public({
      operationId: 'confirmStatusPageSubscription',
      status: 200,
      method: 'get',
      path: '/status/{slug}/confirm',
      tags,
      summary: 'Confirm an e-mail subscription (the link in the confirmation)',
      description: 'Following it again changes nothing. An unknown token answers 404 subscriberNotFound.',
      params: SlugParams,
      query: TokenQuery,
      errors: ['statusPageNotFound', 'subscriberNotFound'],
      handler: async ({ params, req, res }) => {
        await subscriptions.confirm(req, res, { slug: params.slug });
        return undefined;
      },
    })
    .public({
      operationId: 'showStatusPageUnsubscribe',
      status: 200,
      method: 'get',
      path: '/status/{slug}/unsubscribe',
      tags,
      summary: 'The unsubscribe link of a message',
      description: 'Shows a button that unsubscribes (a GET alone changes nothing, so link scanners cannot unsubscribe anyone).',
      params: SlugParams,
      query: TokenQuery,
      handler: async ({ params, req, res }) => {
        subscriptions.showUnsubscribe(req, res, `/status/${params.slug}`);
        return undefined;
      },
    })
    .public({
      operationId: 'unsubscribeFromStatusPage',
      status: 200,
      method: 'post',
      path: '/status/{slug}/unsubscribe',
      tags,
      summary: 'Unsubscribe (one click, RFC 8058)',
      description:
        'The target of List-Unsubscribe with List-Unsubscribe-Post: List-Unsubscribe=One-Click, and of the button. An ' +
        'unknown token answers 404 subscriberNotFound.',
      params: SlugParams,
      query: TokenQuery,
      errors: ['statusPageNotFound', 'subscriberNotFound'],
      handler: async ({ params, req, res }) => {
        await subscriptions.unsubscribe(req, res, { slug: params.slug });
        return undefined;
      },
    }).router;
});
