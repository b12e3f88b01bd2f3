import { performance } from 'node:perf_hooks';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { HttpCheckRequest } from '../../../domain/checks/check-request';
import { checkResult, phaseTimings, type CheckEvidence, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { evaluateHttp, httpsRedirectProbeUrl } from '../../../domain/checks/http-assertions';
import { evaluateCertificate } from '../../../domain/checks/certificate-expiry';
import { findingFor } from '../shared/probe-error';
import type { SharedTlsContext } from '../shared/tls-context';
import { emptyTrail, followRedirects, type HopTrail } from './redirects';

/** Body bytes kept for the keyword check; bytes beyond are counted (for the size check) up to COUNT_LIMIT. */
const KEEP_BODY_BYTES = 2 * 1024 * 1024;
const COUNT_LIMIT = 64 * 1024 * 1024;
const EVIDENCE_HEADERS = [
  'content-type',
  'content-length',
  'server',
  'location',
  'cache-control',
  'date',
  'last-modified',
  'etag',
  'strict-transport-security',
  'x-powered-by',
];

/**
 * Website checks: method, headers and body; redirects followed hop by hop with the target policy
 * re-applied at every hop; connectHost/connectPort; the certificate; status, keyword, size,
 * response-time and HTTPS-redirect assertions (pure, in the domain); the timing breakdown, every
 * phase read from performance.now() and counted from the check's start. Every request identifies
 * the service by `userAgent` unless the monitor's headers set their own User-Agent.
 */
export class NodeHttpChecker implements Checker<HttpCheckRequest> {
  readonly kind = 'http' as const;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly tls: SharedTlsContext,
    private readonly userAgent: string,
  ) {}

  async check(request: HttpCheckRequest, context: CheckContext): Promise<CheckResult> {
    const started = performance.now();
    const a = request.assertions;
    const needBody = a.keyword !== null && request.method !== 'HEAD';
    const trail = emptyTrail();
    const findings: Finding[] = [];
    let evidence: CheckEvidence = {};
    let firstByteAt: number | null = null;
    try {
      const final = await followRedirects(
        this.policy,
        this.tls,
        {
          url: new URL(request.url),
          method: request.method,
          headers: request.headers,
          body: request.body,
          follow: request.followRedirects,
          maxRedirects: request.maxRedirects,
          connectTo: request.connectTo,
          userAgent: this.userAgent,
          keepBodyBytes: needBody ? KEEP_BODY_BYTES : 0,
          countLimit: a.maxPageSize !== null ? Math.min(COUNT_LIMIT, a.maxPageSize + 1) : COUNT_LIMIT,
          deadline: context.deadline,
          certificateAt: a.ssl ? context.now : null,
        },
        trail,
      );
      firstByteAt = final.response.timings.firstByteAt;
      const redirectedToHttps = a.httpsRedirect ? await this.redirectsToHttps(request, trail, context) : null;
      const totalMs = performance.now() - started;
      findings.push(
        ...evaluateHttp(a, {
          status: final.response.status,
          bodyText: needBody && final.response.body ? final.response.body.toString('utf8') : null,
          bodyBytes: final.response.bodyBytes,
          totalMs,
          redirectedToHttps,
        }),
      );
      const cert = final.response.certificate;
      if (a.ssl && cert) {
        findings.push(
          ...evaluateCertificate(
            {
              validFrom: new Date(cert.validFrom),
              validTo: new Date(cert.validTo),
              authorized: cert.authorized,
              authorizationError: cert.authorizationError,
            },
            { noticeDays: a.ssl.noticeDays, verify: !request.connectTlsInsecure },
            context.now,
          ),
        );
      }
      evidence = {
        target: { host: final.url.hostname, address: final.response.address, port: final.response.port },
        http: {
          status: final.response.status,
          headers: pick(final.response.headers),
          finalUrl: final.url.toString(),
          redirects: trail.hops,
          bodyBytes: final.response.bodyBytes,
        },
        ...(cert ? { certificate: cert } : {}),
      };
    } catch (error) {
      findings.push(findingFor(error));
      if (trail.hops.length) {
        evidence = {
          http: { status: 0, headers: {}, finalUrl: trail.hops[trail.hops.length - 1]!.url, redirects: trail.hops, bodyBytes: 0 },
        };
      }
    }
    return checkResult({
      kind: 'http',
      findings,
      evidence,
      checkedAt: context.now,
      timings: phaseTimings(started, trail.dnsAt, trail.connectAt, trail.tlsAt, firstByteAt, performance.now()),
    });
  }

  /** Whether the plain-HTTP address ends on https: the chain already followed, or a probe of the http: twin. */
  private async redirectsToHttps(request: HttpCheckRequest, trail: HopTrail, context: CheckContext): Promise<boolean> {
    if (request.url.startsWith('http:') && request.followRedirects) {
      return trail.hops.some((hop) => hop.url.startsWith('https:'));
    }
    const probe = emptyTrail();
    try {
      const final = await followRedirects(
        this.policy,
        this.tls,
        {
          url: new URL(httpsRedirectProbeUrl(request.url)),
          method: 'GET',
          headers: request.headers,
          body: null,
          userAgent: this.userAgent,
          follow: true,
          maxRedirects: request.maxRedirects,
          keepBodyBytes: 0,
          countLimit: 0,
          deadline: context.deadline,
          certificateAt: null,
        },
        probe,
      );
      return final.url.protocol === 'https:' || probe.hops.some((hop) => hop.url.startsWith('https:'));
    } catch {
      return probe.hops.some((hop) => hop.url.startsWith('https:'));
    }
  }
}

function pick(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of EVIDENCE_HEADERS) {
    const value = headers[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
