import { z } from 'zod';
import 'zod-openapi';
import { HostBranding } from '../../../application/custom-domains/host-branding';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { customDomainOf } from '../shared/http-context';

const BrandingSchema = z
  .object({
    whiteLabel: z.boolean().meta({ description: 'true when the request came by an active white-label custom domain' }),
    name: z.string().nullable().meta({ description: "The organization's name; null: the platform's own look" }),
    accentColor: z.string().nullable().meta({ description: '`#rrggbb`, or null (the platform accent)' }),
    logo: z.string().nullable().meta({ description: 'A base64 data URL of an image, or null' }),
  })
  .meta({ id: 'Branding' });

const ManifestSchema = z
  .object({
    name: z.string(),
    short_name: z.string(),
    id: z.string(),
    start_url: z.string(),
    scope: z.string(),
    display: z.string(),
    theme_color: z.string(),
    background_color: z.string(),
    icons: z.array(z.object({ src: z.string(), sizes: z.string(), type: z.string(), purpose: z.string() })),
  })
  .meta({ id: 'WebAppManifest' });

/** The platform's name and colours, as the console's own look (console/src/screens/branding). */
const PLATFORM_NAME = 'Monitoring';
const PLATFORM_THEME = '#1f2937';
const ICONS = [
  { src: '/app/icons/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
  { src: '/app/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/app/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/app/icons/maskable.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'maskable' },
  { src: '/app/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
];

/** The console's look under the host it was opened by: read before sign-in, so public. */
export const brandingRouter = defineRouter(
  { hostBranding: HostBranding },
  (deps, use) =>
    new ApiRouter(deps)
      .public({
        operationId: 'getBranding',
        method: 'get',
        path: '/api/branding',
        tags: ['Custom domains'],
        summary: 'The look of the host (white-label)',
        description:
          "Answers by the request's host (Host, or X-Forwarded-Host from a TRUST_PROXY peer): on an active white-label custom " +
          "domain, the organization's name, accent colour and logo (set with PATCH /api/organization), so a console or a sign-in " +
          'page there can show them and nothing of the platform; on any other host, `whiteLabel: false` and nulls. No authentication.',
        query: z.object({}).strict().meta({ description: 'No parameters: any query parameter answers 400 validationFailed' }),
        response: BrandingSchema,
        handler: async ({ res }) => {
          res.setHeader('cache-control', 'no-cache');
          return use.hostBranding.of(customDomainOf(res));
        },
      })
      .public({
        operationId: 'getWebAppManifest',
        method: 'get',
        path: '/api/branding/manifest.webmanifest',
        tags: ['Custom domains'],
        summary: "The console's web app manifest under the host (installable, white-label)",
        description:
          'What a browser installs the console from: on an active white-label custom domain, named after the organization, its ' +
          "accent colour the theme colour; elsewhere the platform's. Icons (a maskable one too) are the console's. No authentication.",
        query: z.object({}).strict().meta({ description: 'No parameters: any query parameter answers 400 validationFailed' }),
        response: ManifestSchema,
        responseType: 'application/manifest+json',
        handler: async ({ res }) => {
          const brand = await use.hostBranding.of(customDomainOf(res));
          res.setHeader('cache-control', 'no-cache');
          res.setHeader('content-type', 'application/manifest+json; charset=utf-8');
          const name = brand.name ?? PLATFORM_NAME;
          return {
            name,
            short_name: name.length > 12 ? `${name.slice(0, 11)}…` : name,
            id: '/app/',
            start_url: '/app/',
            scope: '/app/',
            display: 'standalone',
            theme_color: brand.accentColor ?? PLATFORM_THEME,
            background_color: '#ffffff',
            icons: ICONS,
          };
        },
      }).router,
);
