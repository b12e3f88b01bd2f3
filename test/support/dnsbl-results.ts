import { checkResult, NO_TIMINGS, type DnsblListing } from '../../src/domain/checks/check-result';
import { evaluateDnsbl } from '../../src/domain/checks/dnsbl';

/** A blocklist entry of zone `listKey`. */
export const aListing = (listKey: string): DnsblListing => ({
  name: listKey,
  reason: 'spam',
  listKey,
  delistUrl: 'https://x',
  resultCode: '127.0.0.2',
});

/** A DNSBL check's result as the rules judge it: these listings, zones that failed, zones asked. */
export const aDnsblResult = (listings: DnsblListing[], failedZones: string[] = [], checkedZones = 2) =>
  checkResult({
    kind: 'dnsbl',
    timings: NO_TIMINGS(1),
    checkedAt: new Date(),
    findings: evaluateDnsbl(listings, failedZones, checkedZones),
    evidence: { dnsbl: { ip: '1.2.3.4', listings, checkedZones, failedZones } },
  });
