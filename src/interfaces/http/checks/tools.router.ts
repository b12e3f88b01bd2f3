import { RunPublicTool, type ToolRequest } from '../../../application/checks/run-public-tool';
import type { ErrorCode } from '../../../domain/shared/error-codes';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { presentCheckResult } from './presenters';
import { CheckResultSchema, DnsblLookupQuery, DnsLookupQuery, DomainExpiryQuery, PortCheckQuery, SslCertificateQuery } from './schemas';

const tags = ['Tools'] as const;
const errors: ErrorCode[] = ['rateLimited', 'invalidHostname'];
const COMMON =
  'Runs the same checker the monitors use, once, with a 10 s deadline, and answers the check result ' +
  '(status up, degraded or down; the reason and every finding; timings; evidence). Any signed-in caller, API token ' +
  'or agent token with tools.public may call it; 30 tool calls per minute per caller (429 rateLimited with ' +
  'data.retryAfter). Targets that are not public addresses answer 400 invalidHostname.';

/** GET /api/tools/*: public lookups through the check engine's adapters. */
export const toolsRouter = defineRouter({ runPublicTool: RunPublicTool }, (deps, use) => {
  const run = (input: ToolRequest, actor: Parameters<RunPublicTool['execute']>[0]) =>
    use.runPublicTool.execute(actor, input).then(presentCheckResult);
  return new ApiRouter(deps)
    .route({
      operationId: 'lookUpDns',
      method: 'get',
      path: '/api/tools/dns-lookup',
      tags,
      errors,
      response: CheckResultSchema,
      query: DnsLookupQuery,
      summary: 'Look up DNS records of a domain',
      description: `${COMMON} Asks the service's resolvers for one record type (default A); evidence.dns.answers lists them. A name without records is down with dnsNoAnswer.`,
      handler: ({ query, actor }) => run({ tool: 'dnsLookup', domain: query.domain, type: query.type }, actor),
    })
    .route({
      operationId: 'inspectSslCertificate',
      method: 'get',
      path: '/api/tools/ssl-certificate',
      tags,
      errors,
      response: CheckResultSchema,
      query: SslCertificateQuery,
      summary: 'Inspect the TLS certificate of a host',
      description: `${COMMON} Performs a TLS handshake (port 443 by default) and describes the certificate chain; untrusted or expired certificates are down, certificates expiring within 14 days degraded.`,
      handler: ({ query, actor }) => run({ tool: 'sslCertificate', host: query.host, port: query.port }, actor),
    })
    .route({
      operationId: 'checkPort',
      method: 'get',
      path: '/api/tools/port-check',
      tags,
      errors,
      response: CheckResultSchema,
      query: PortCheckQuery,
      summary: 'Check whether a TCP port accepts connections',
      description: `${COMMON} Opens a TCP connection to the port and closes it; refused or timed-out connections are down.`,
      handler: ({ query, actor }) => run({ tool: 'portCheck', host: query.host, port: query.port }, actor),
    })
    .route({
      operationId: 'lookUpDnsbl',
      method: 'get',
      path: '/api/tools/dnsbl-lookup',
      tags,
      errors,
      response: CheckResultSchema,
      query: DnsblLookupQuery,
      summary: 'Check an IP address against DNS blocklists',
      description: `${COMMON} Queries every configured blocklist zone for the IPv4 or IPv6 address; evidence.dnsbl.listings has name, reason, listKey, delistUrl and resultCode per listing.`,
      handler: ({ query, actor }) => run({ tool: 'dnsblLookup', ip: query.ip }, actor),
    })
    .route({
      operationId: 'lookUpDomainExpiry',
      method: 'get',
      path: '/api/tools/domain-expiry',
      tags,
      errors,
      response: CheckResultSchema,
      query: DomainExpiryQuery,
      summary: 'Look up when a domain registration expires',
      description: `${COMMON} RDAP first (IANA bootstrap), WHOIS as fallback; evidence.domain has expiresAt, registrar and daysRemaining. Degraded within 30 days, down within 7 days or once expired.`,
      handler: ({ query, actor }) => run({ tool: 'domainExpiry', domain: query.domain }, actor),
    }).router;
});
