import { z } from 'zod';
import { DNS_RECORD_TYPES } from '../../../domain/checks/check-request';

const HOST_NAME = /^(?=.{1,253}\.?$)(?!-)[a-z0-9-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.?$/i;
const IP_LITERAL = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[?[0-9a-f:.]+\]?)$/i;

export const DomainName = z.string().trim().toLowerCase().max(253).regex(HOST_NAME, 'Not a domain name');
export const Host = z
  .string()
  .trim()
  .max(255)
  .refine((h) => HOST_NAME.test(h) || IP_LITERAL.test(h), 'Not a host name or IP address');
const Port = z.coerce.number().int().min(1).max(65535);

export const DnsLookupQuery = z.object({ domain: DomainName, type: z.enum(DNS_RECORD_TYPES).default('A') }).strict();
export const SslCertificateQuery = z.object({ host: Host, port: Port.default(443) }).strict();
export const PortCheckQuery = z.object({ host: Host, port: Port }).strict();
export const DnsblLookupQuery = z.object({ ip: z.union([z.ipv4(), z.ipv6()]) }).strict();
export const DomainExpiryQuery = z.object({ domain: DomainName }).strict();

const Nullable = (schema: z.ZodType) => schema.nullable();
const Finding = z.object({ status: z.enum(['degraded', 'down']), code: z.string(), message: z.string() });
const Certificate = z.object({
  subject: z.string(),
  issuer: z.string(),
  validFrom: z.string(),
  validTo: z.string(),
  daysRemaining: z.number().int(),
  fingerprint: z.string(),
});

export const CheckResultSchema = z
  .object({
    kind: z.string(),
    status: z.enum(['up', 'degraded', 'down']),
    reason: Nullable(Finding),
    findings: z.array(Finding),
    timings: z
      .object({
        dnsMs: Nullable(z.number()),
        connectMs: Nullable(z.number()),
        tlsMs: Nullable(z.number()),
        firstByteMs: Nullable(z.number()),
        totalMs: z.number(),
      })
      .meta({
        description:
          'Milliseconds from the start of the check to the end of each phase (cumulative, one monotonic clock, ' +
          '0.1 ms): dnsMs <= connectMs <= tlsMs <= firstByteMs <= totalMs; null for a phase that did not happen',
      }),
    evidence: z
      .object({
        target: z.object({ host: z.string(), address: Nullable(z.string()), port: Nullable(z.number().int()) }).optional(),
        certificate: Certificate.extend({
          subjectAltNames: z.array(z.string()),
          authorized: z.boolean(),
          authorizationError: Nullable(z.string()),
          chain: z.array(Certificate),
        }).optional(),
        dns: z.object({ resolver: z.string(), recordType: z.string(), answers: z.array(z.string()) }).optional(),
        domain: z
          .object({
            domain: z.string(),
            expiresAt: Nullable(z.string()),
            registrar: Nullable(z.string()),
            daysRemaining: Nullable(z.number().int()),
            source: z.enum(['rdap', 'whois']),
          })
          .optional(),
        dnsbl: z
          .object({
            ip: z.string(),
            checkedZones: z.number().int(),
            failedZones: z.array(z.string()),
            listings: z.array(
              z.object({ name: z.string(), reason: z.string(), listKey: z.string(), delistUrl: z.string(), resultCode: z.string() }),
            ),
          })
          .optional(),
      })
      .catchall(z.unknown()),
    checkedAt: z.string(),
  })
  .meta({ id: 'CheckResult' });
