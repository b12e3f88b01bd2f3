import { performance } from 'node:perf_hooks';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { DomainExpiryCheckRequest } from '../../../domain/checks/check-request';
import { checkResult, down, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { evaluateDomainExpiry, registrableCandidates, type DomainRegistration } from '../../../domain/checks/domain-expiry';
import { daysUntil } from '../../../domain/checks/certificate-expiry';
import { findingFor } from '../shared/probe-error';
import type { RdapClient } from './rdap-client';
import type { WhoisClient } from './whois-client';

/**
 * Domain expiry: RDAP first (IANA bootstrap), WHOIS when the TLD has no RDAP service or RDAP
 * fails. A host name is looked up from the longest candidate down (www.example.co.uk, then
 * example.co.uk) until the registry knows it.
 */
export class RdapDomainExpiryChecker implements Checker<DomainExpiryCheckRequest> {
  readonly kind = 'domainExpiry' as const;

  constructor(
    private readonly rdap: RdapClient,
    private readonly whois: WhoisClient,
  ) {}

  async check(request: DomainExpiryCheckRequest, context: CheckContext): Promise<CheckResult> {
    const started = performance.now();
    let registration: DomainRegistration | null = null;
    let findings: Finding[];
    try {
      registration = await this.find(request.domain, context);
      findings = registration
        ? evaluateDomainExpiry(registration, { warningDays: request.warningDays, errorDays: request.errorDays }, context.now)
        : [down('domainLookupFailed', `No registry knows ${request.domain}`)];
    } catch (error) {
      const finding = findingFor(error);
      findings = [finding.code === 'targetRejected' ? finding : down('domainLookupFailed', finding.message)];
    }
    return checkResult({
      kind: 'domainExpiry',
      findings,
      checkedAt: context.now,
      evidence: registration
        ? {
            domain: {
              domain: registration.domain,
              expiresAt: registration.expiresAt?.toISOString() ?? null,
              registrar: registration.registrar,
              daysRemaining: registration.expiresAt ? daysUntil(registration.expiresAt, context.now) : null,
              source: registration.source,
            },
          }
        : {},
      timings: { dnsMs: null, connectMs: null, tlsMs: null, firstByteMs: null, totalMs: performance.now() - started },
    });
  }

  private async find(host: string, context: CheckContext): Promise<DomainRegistration | null> {
    for (const candidate of registrableCandidates(host)) {
      let answer;
      try {
        answer = await this.rdap.lookup(candidate, context.deadline, context.now.getTime());
      } catch (error) {
        if (context.deadline.passed) throw error;
        answer = null;
      }
      if (answer === null) answer = await this.whois.lookup(candidate, context.deadline);
      if (answer !== 'notFound') return answer;
    }
    return null;
  }
}
