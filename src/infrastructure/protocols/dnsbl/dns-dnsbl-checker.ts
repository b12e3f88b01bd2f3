import { performance } from 'node:perf_hooks';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { DnsblCheckRequest } from '../../../domain/checks/check-request';
import { checkResult, down, phaseTimings, type CheckResult, type DnsblListing } from '../../../domain/checks/check-result';
import { classifyDnsblAnswer, evaluateDnsbl, reversedIpLabel, type DnsblZone } from '../../../domain/checks/dnsbl';
import { cancelAtDeadline, type ResolverFactory } from '../dns/resolver-factory';

type ZoneOutcome = { kind: 'clean' } | { kind: 'listed'; listing: DnsblListing } | { kind: 'failed' };

/** Queries reversed-IP.zone A (and TXT for the reason) on every configured blocklist zone, in parallel. */
export class DnsDnsblChecker implements Checker<DnsblCheckRequest> {
  readonly kind = 'dnsbl' as const;

  constructor(
    private readonly zones: readonly DnsblZone[],
    private readonly resolvers: ResolverFactory,
  ) {}

  async check(request: DnsblCheckRequest, context: CheckContext): Promise<CheckResult> {
    const started = performance.now();
    const label = reversedIpLabel(request.ip);
    const timings = () => {
      const now = performance.now();
      return phaseTimings(started, now, null, null, null, now);
    };
    if (!label) {
      return checkResult({
        kind: 'dnsbl',
        findings: [down('dnsblLookupFailed', `${request.ip} is not an IP address`)],
        evidence: {},
        timings: timings(),
        checkedAt: context.now,
      });
    }
    const resolver = this.resolvers.create(request.timeoutSeconds * 1000);
    const release = cancelAtDeadline(resolver, context.deadline);
    try {
      const outcomes = await Promise.all(this.zones.map((zone) => this.lookup(resolver, label, zone)));
      const listings = outcomes.flatMap((o) => (o.kind === 'listed' ? [o.listing] : []));
      const failedZones = this.zones.filter((_, i) => outcomes[i]!.kind === 'failed').map((z) => z.zone);
      return checkResult({
        kind: 'dnsbl',
        findings: evaluateDnsbl(listings, failedZones, this.zones.length),
        checkedAt: context.now,
        timings: timings(),
        evidence: { dnsbl: { ip: request.ip, listings, checkedZones: this.zones.length, failedZones } },
      });
    } finally {
      release();
    }
  }

  private async lookup(resolver: import('node:dns/promises').Resolver, label: string, zone: DnsblZone): Promise<ZoneOutcome> {
    const name = `${label}.${zone.zone}`;
    let addresses: string[];
    try {
      addresses = await resolver.resolve4(name);
    } catch (error) {
      const code = (error as { code?: string }).code;
      return code === 'ENOTFOUND' || code === 'ENODATA' ? { kind: 'clean' } : { kind: 'failed' };
    }
    const listed = addresses.find((a) => classifyDnsblAnswer(a) === 'listed');
    if (!listed) return { kind: 'failed' };
    const reason = await resolver.resolveTxt(name).then(
      (txt) => txt.map((c) => c.join('')).join(' '),
      () => '',
    );
    return {
      kind: 'listed',
      listing: {
        name: zone.name,
        reason: reason || `Listed (${listed})`,
        listKey: zone.zone,
        delistUrl: zone.delistUrl,
        resultCode: listed,
      },
    };
  }
}
