import type { DnsblZone } from '../../../domain/checks/dnsbl';

/** Well-known public blocklists (override with DNSBL_ZONES). */
export const DEFAULT_DNSBL_ZONES: readonly DnsblZone[] = [
  { zone: 'zen.spamhaus.org', name: 'Spamhaus ZEN', delistUrl: 'https://check.spamhaus.org/' },
  { zone: 'bl.spamcop.net', name: 'SpamCop', delistUrl: 'https://www.spamcop.net/bl.shtml' },
  { zone: 'b.barracudacentral.org', name: 'Barracuda', delistUrl: 'https://www.barracudacentral.org/rbl/removal-request' },
  { zone: 'psbl.surriel.com', name: 'PSBL', delistUrl: 'https://psbl.org/remove' },
  { zone: 'bl.mailspike.net', name: 'Mailspike', delistUrl: 'https://mailspike.org/anubis/lookup.html' },
  { zone: 'dnsbl.dronebl.org', name: 'DroneBL', delistUrl: 'https://dronebl.org/lookup' },
  { zone: 'dnsbl-1.uceprotect.net', name: 'UCEPROTECT Level 1', delistUrl: 'https://www.uceprotect.net/en/rblcheck.php' },
];
