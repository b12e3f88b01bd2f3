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

/** The console's look under the host it was opened by: read before sign-in, so public. */
export const brandingRouter = defineRouter(
  { hostBranding: HostBranding },
  (deps, use) =>
    new ApiRouter(deps).public({
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
    }).router,
);
