import { domainToASCII } from 'node:url';
import { z } from 'zod';
import 'zod-openapi';
import { CUSTOM_DOMAIN_KINDS, CUSTOM_DOMAIN_STATUSES } from '../../../domain/custom-domains/custom-domain';

/** What a URL has around a host (scheme, port, path, query, user): domainToASCII would cut it off silently. */
const URL_PARTS = /[/\\?#@:\s]/;

/**
 * International names are accepted and claimed as punycode; whether it is a claimable name is the
 * domain's rule. A value with any part of a URL around the name is passed on as sent, so the rule
 * refuses it (invalidHostname) instead of claiming the name cut out of it.
 */
const HostnameInput = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .transform((value) => (URL_PARTS.test(value) ? value : domainToASCII(value.toLowerCase()) || value))
  .meta({
    description:
      'A public DNS name of two labels or more (IDNs accepted, stored as punycode), without scheme, port or path ' +
      '(invalidHostname). Not the platform host or a name under it (hostnameReserved).',
    example: 'status.acme.com',
  });

export const CreateCustomDomainBody = z
  .object({
    hostname: HostnameInput,
    kind: z.enum(CUSTOM_DOMAIN_KINDS).meta({
      description:
        "`whiteLabel`: the organization's API and pages answer under the host (organization admins). `statusPage`: " +
        'the host serves one status page at `/` (writers who manage the page).',
    }),
    statusPageId: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .nullable()
      .optional()
      .meta({ description: 'The status page a `statusPage` host serves (required for that kind, refused for `whiteLabel`)' }),
  })
  .strict()
  .meta({ id: 'CustomDomainCreate' });

export const IdParams = z.object({ id: z.string().trim().min(1).max(64).meta({ description: "The entry's id (uuid)" }) });

export const TlsAskQuery = z
  .object({
    domain: z
      .string()
      .trim()
      .min(1)
      .max(253)
      .meta({ description: 'The hostname a TLS certificate is about to be issued for', example: 'status.acme.com' }),
  })
  .strict();

export const CustomDomainSchema = z
  .object({
    id: z.uuid(),
    hostname: z.string().meta({ description: 'Normalized: lower case, punycode, no trailing dot' }),
    kind: z.enum(CUSTOM_DOMAIN_KINDS),
    statusPageId: z.string().nullable(),
    customerId: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The customer whose status page the host serves; null: the organization's" }),
    status: z.enum(CUSTOM_DOMAIN_STATUSES).meta({
      description:
        '`pending` until the TXT record is seen (dropped after 7 days), `verified` (the hostname is held), ' +
        '`active` (requests for the host are routed)',
    }),
    verification: z
      .object({
        recordType: z.literal('TXT'),
        recordName: z.string().meta({ description: '`_monitoring-verify.<hostname>`', example: '_monitoring-verify.status.acme.com' }),
        recordValue: z.string().meta({ description: 'Publish exactly this value' }),
      })
      .meta({ description: 'The DNS record that proves control of the hostname' }),
    expiresAt: z.iso.datetime().nullable().meta({ description: 'When a pending entry is dropped; null once verified' }),
    verifiedAt: z.iso.datetime().nullable(),
    activatedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'CustomDomain' });
