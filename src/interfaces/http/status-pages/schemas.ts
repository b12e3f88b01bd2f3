import { z } from 'zod';
import 'zod-openapi';
import { COMPONENT_TYPES, SLUG } from '../../../domain/status-pages/status-page';
import { UPDATE_STATUSES } from '../../../domain/status-pages/page-incident';

/** The largest logo a page embeds (decoded bytes): the page stays small enough to load on a phone during an outage. */
export const MAX_LOGO_BYTES = 32 * 1024;
const LOGO = /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,([A-Za-z0-9+/]+={0,2})$/;

const Ref = z.string().trim().min(1).max(64);
const Logo = z
  .string()
  .max(Math.ceil(MAX_LOGO_BYTES / 3) * 4 + 64)
  .refine((value) => LOGO.test(value), 'Must be a data:image/(png|jpeg|gif|webp|svg+xml);base64, URL')
  .refine(
    (value) => Buffer.byteLength(value.replace(LOGO, '$2'), 'base64') <= MAX_LOGO_BYTES,
    `At most ${MAX_LOGO_BYTES} bytes once decoded`,
  )
  .nullable()
  .meta({
    description: `Embedded in the page as a data URL (PNG, JPEG, GIF, WebP or SVG), at most ${MAX_LOGO_BYTES / 1024} KiB decoded; no external assets`,
  });
const Color = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Must be #rrggbb')
  .meta({ description: 'Header colour `#rrggbb`; the header text is black or white, whichever contrasts more', example: '#1f6feb' });
const Slug = z
  .string()
  .trim()
  .toLowerCase()
  .regex(SLUG, 'Lowercase letters, digits and inner hyphens, 1-64 characters')
  .meta({ description: 'The page answers at /status/{slug}; unique across the service (statusPageSlugTaken)', example: 'acme' });
const Password = z
  .string()
  .min(8)
  .max(200)
  .nullable()
  .meta({ description: 'Visitors must enter it (a form; then a signed cookie) to read the page; null removes it. Never returned' });
const IpAllowlist = z
  .array(z.string().trim().min(1).max(64))
  .max(100)
  .meta({ description: 'IP addresses or CIDRs allowed to read the page; empty = anyone' });

const ComponentInput = z
  .object({
    type: z
      .enum(COMPONENT_TYPES)
      .meta({ description: '`monitor`: a monitor of any kind; `customerDomain` / `customerIp`: a watched domain or IP' }),
    id: Ref.meta({ description: 'Public id (uuid) or legacy integer id of the record' }),
    name: z.string().trim().min(1).max(200).nullable().optional().meta({ description: "Shown instead of the record's own name" }),
  })
  .strict()
  .meta({ id: 'StatusPageComponentInput' });

const GroupInput = z
  .object({
    name: z.string().trim().min(1).max(200),
    components: z.array(ComponentInput).max(200),
  })
  .strict()
  .meta({ id: 'StatusPageGroupInput' });

const fields = {
  title: z.string().trim().min(1).max(200),
  slug: Slug,
  description: z.string().trim().max(2000).nullable(),
  logo: Logo,
  brandColor: Color,
  groups: z.array(GroupInput).max(50).meta({ description: 'Named groups of components, in display order' }),
  showResponseTimes: z.boolean().meta({ description: "Show each monitor's last response time on the page" }),
  footer: z.string().trim().max(2000).nullable().meta({ description: 'Plain text at the bottom of the page' }),
  ipAllowlist: IpAllowlist,
  objectives: z
    .array(Ref)
    .max(20)
    .meta({
      description:
        'Service level objectives whose attainment the page shows, by public or legacy id, in display order (at most 20). ' +
        "A customer's page may name only that customer's objectives; another's answers serviceLevelObjectiveNotFound (404)",
    }),
  password: Password,
};

export const CreatePageBody = z
  .object({
    ...fields,
    description: fields.description.default(null),
    logo: fields.logo.default(null),
    brandColor: fields.brandColor.default('#1f2937'),
    groups: fields.groups.default([]),
    showResponseTimes: fields.showResponseTimes.default(false),
    footer: fields.footer.default(null),
    ipAllowlist: fields.ipAllowlist.default([]),
    objectives: fields.objectives.default([]),
    password: fields.password.default(null),
    customerId: Ref.nullable().default(null).meta({
      description: "Make it a page of this customer (organization callers); customer-scoped callers' pages are always their customer's",
    }),
  })
  .strict()
  .meta({ id: 'StatusPageCreate' });

export const UpdatePageBody = z
  .object({
    title: fields.title.optional(),
    slug: fields.slug.optional(),
    description: fields.description.optional(),
    logo: fields.logo.optional(),
    brandColor: fields.brandColor.optional(),
    groups: fields.groups.optional().meta({ description: 'Replaces every group' }),
    showResponseTimes: fields.showResponseTimes.optional(),
    footer: fields.footer.optional(),
    ipAllowlist: fields.ipAllowlist.optional(),
    objectives: fields.objectives.optional().meta({ description: 'Replaces the objectives shown' }),
    password: fields.password.optional(),
  })
  .strict()
  .meta({ id: 'StatusPageUpdate' });

export const IdParams = z.object({ id: z.string().max(64) });
export const IncidentParams = z.object({ id: z.string().max(64), incidentId: z.string().max(64) });

const Instant = z.iso.datetime();

export const StatusPageSchema = z
  .object({
    id: z.uuid().meta({ description: "The page's public id, the id paths take" }),
    publicId: z.uuid().meta({ description: 'The same public id, under the name every other resource uses' }),
    customerId: z.number().int().nullable(),
    title: z.string(),
    slug: z.string(),
    url: z.string().meta({ description: 'Where visitors read it' }),
    description: z.string().nullable(),
    logo: z.string().nullable(),
    brandColor: z.string(),
    groups: z.array(
      z.object({
        name: z.string(),
        components: z.array(
          z.object({
            type: z.enum(COMPONENT_TYPES),
            id: z.uuid(),
            name: z.string().nullable(),
            recordName: z.string(),
          }),
        ),
      }),
    ),
    showResponseTimes: z.boolean(),
    footer: z.string().nullable(),
    ipAllowlist: z.array(z.string()),
    objectives: z
      .array(z.object({ id: z.uuid(), name: z.string() }))
      .meta({ description: 'The service level objectives shown, in order (deleted ones drop out)' }),
    passwordProtected: z.boolean(),
    isPrivate: z.boolean(),
    createdAt: Instant,
    updatedAt: Instant,
  })
  .meta({ id: 'StatusPage' });

export const UpdateStatus = z.enum(UPDATE_STATUSES);

export const CreateIncidentBody = z
  .object({
    title: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "Required unless incidentId is given (then the service incident's title is the default)" }),
    incidentId: Ref.optional().meta({
      description: 'A service incident (automatic or manual) of a monitor on the page: the update tells about it',
    }),
    status: UpdateStatus.default('investigating'),
    message: z.string().trim().min(1).max(5000),
    componentIds: z.array(Ref).max(200).default([]).meta({ description: "Affected components of the page, by their record's id" }),
  })
  .strict()
  .meta({ id: 'StatusPageIncidentCreate' });

export const CreateUpdateBody = z
  .object({
    status: UpdateStatus,
    message: z.string().trim().min(1).max(5000),
  })
  .strict()
  .meta({ id: 'StatusPageIncidentUpdateCreate' });

export const PageIncidentSchema = z
  .object({
    id: z.uuid(),
    incidentId: z.uuid().nullable().meta({ description: 'The service incident it tells about, if any' }),
    title: z.string(),
    status: UpdateStatus,
    componentIds: z.array(z.uuid()),
    updates: z.array(z.object({ status: UpdateStatus, message: z.string(), createdAt: Instant })),
    createdAt: Instant,
    updatedAt: Instant,
    resolvedAt: Instant.nullable(),
  })
  .meta({ id: 'StatusPageIncident' });

export const SubscriberParams = z.object({
  id: z.string().max(64),
  subscriberId: z.string().max(64).meta({ description: 'A positive integer (invalidSubscriberId otherwise)' }),
});

const FollowedComponents = z
  .array(Ref)
  .max(200)
  .default([])
  .meta({ description: "Components of the page to follow, by their record's id; empty = the whole page" });
const WebhookUrl = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .meta({
    description:
      'Receives JSON POSTs signed like channel webhooks (X-Webhook-Signature). Judged at creation by the ' +
      "notification channels' URL rule (a private, loopback, link-local or metadata address, or a reserved name, answers 400 " +
      'invalidRequestBody unless CHECK_PRIVATE_ALLOWLIST admits it) and again at delivery through the target policy',
  });

export const CreateSubscriberBody = z
  .discriminatedUnion('channel', [
    z.object({ channel: z.literal('email'), email: z.email().max(320), componentIds: FollowedComponents }).strict(),
    z.object({ channel: z.literal('webhook'), url: WebhookUrl, componentIds: FollowedComponents }).strict(),
  ])
  .meta({ id: 'StatusPageSubscriberCreate' });

export const SubscriberSchema = z
  .object({
    id: z.number().int(),
    channel: z.enum(['email', 'webhook']),
    address: z.string().meta({ description: 'The e-mail address or the webhook URL' }),
    componentIds: z.array(z.uuid()),
    confirmed: z.boolean().meta({ description: 'E-mail subscribers confirm through the link sent to them (double opt-in)' }),
    createdAt: Instant,
    confirmedAt: Instant.nullable(),
  })
  .meta({ id: 'StatusPageSubscriber' });

export const PublicSubscribeBody = z
  .object({
    email: z.email().max(320),
    componentIds: z.union([z.array(Ref).max(200), Ref.transform((v) => [v])]).default([]),
  })
  .strict()
  .meta({ id: 'StatusPageSubscribe' });
