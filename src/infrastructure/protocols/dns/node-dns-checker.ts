import { performance } from 'node:perf_hooks';
import type { Resolver } from 'node:dns/promises';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { DnsCheckRequest, DnsRecordType } from '../../../domain/checks/check-request';
import { checkResult, down, phaseTimings, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { evaluateDnsAnswers } from '../../../domain/checks/dns-expectations';
import { cancelAtDeadline, type ResolverFactory } from './resolver-factory';

const NO_DATA = new Set(['ENODATA', 'ENOTFOUND', 'NOTFOUND']);

/** Resolves one record type through the chosen resolver (vetted by the target policy) or the service's. */
export class NodeDnsChecker implements Checker<DnsCheckRequest> {
  readonly kind = 'dns' as const;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly resolvers: ResolverFactory,
  ) {}

  async check(request: DnsCheckRequest, context: CheckContext): Promise<CheckResult> {
    const started = performance.now();
    const finish = (findings: Finding[], answers: string[], resolver: string, dnsAt: number | null) =>
      checkResult({
        kind: 'dns',
        findings,
        checkedAt: context.now,
        evidence: { dns: { resolver, recordType: request.recordType, answers } },
        timings: phaseTimings(started, dnsAt, null, null, null, performance.now()),
      });
    const chosen = request.resolver ? serverAddress(request.resolver) : null;
    if (request.resolver && (!chosen || !this.policy.isAllowedAddress(chosen))) {
      return finish([down('targetRejected', `Resolver ${request.resolver} is not a public address`)], [], request.resolver, null);
    }
    const timeoutMs = request.timeoutSeconds * 1000;
    const resolver = this.resolvers.create(timeoutMs, request.resolver ? [request.resolver] : undefined);
    const label = request.resolver ?? this.resolvers.describe();
    const release = cancelAtDeadline(resolver, context.deadline);
    try {
      const answers = await query(resolver, request.name, request.recordType);
      return finish(evaluateDnsAnswers(answers, request.expectedValues), answers, label, performance.now());
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      const answeredAt = performance.now();
      if (NO_DATA.has(code)) {
        const what = code === 'ENODATA' ? `no ${request.recordType} records` : 'the name does not exist (NXDOMAIN)';
        return finish([down('dnsNoAnswer', `${request.name}: ${what}`)], [], label, answeredAt);
      }
      if (context.deadline.passed || code === 'ECANCELLED')
        return finish([down('timeout', 'The DNS query timed out')], [], label, answeredAt);
      return finish([down('dnsQueryFailed', `DNS query failed: ${code || (error as Error).message}`)], [], label, answeredAt);
    } finally {
      release();
    }
  }
}

/** The IP of `ip`, `ip:port`, `[v6]` or `[v6]:port`; null when not an address. */
export function serverAddress(server: string): string | null {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(server);
  if (bracketed) return bracketed[1]!;
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?$/.exec(server);
  if (v4) return v4[1]!;
  return /^[0-9a-f:]+$/i.test(server) && server.includes(':') ? server : null;
}

/** Answers as strings in zone-file order of fields. */
export async function query(resolver: Resolver, name: string, type: DnsRecordType): Promise<string[]> {
  switch (type) {
    case 'A':
      return resolver.resolve4(name);
    case 'AAAA':
      return resolver.resolve6(name);
    case 'CNAME':
      return resolver.resolveCname(name);
    case 'NS':
      return resolver.resolveNs(name);
    case 'PTR':
      return resolver.resolvePtr(name);
    case 'MX':
      return (await resolver.resolveMx(name)).sort((a, b) => a.priority - b.priority).map((r) => `${r.priority} ${r.exchange}`);
    case 'TXT':
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    case 'SRV':
      return (await resolver.resolveSrv(name)).map((r) => `${r.priority} ${r.weight} ${r.port} ${r.name}`);
    case 'CAA':
      return (await resolver.resolveCaa(name)).map((r) => {
        const [tag, value] = Object.entries(r).find(([k]) => k !== 'critical') ?? ['', ''];
        return `${r.critical} ${tag} "${value}"`;
      });
    case 'SOA': {
      const s = await resolver.resolveSoa(name);
      return [`${s.nsname} ${s.hostmaster} ${s.serial} ${s.refresh} ${s.retry} ${s.expire} ${s.minttl}`];
    }
  }
}
