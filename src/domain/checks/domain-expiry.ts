import { degraded, down, type Finding } from './check-result';
import { daysUntil } from './certificate-expiry';

/** What a registry lookup (RDAP or WHOIS) answered. */
export interface DomainRegistration {
  readonly domain: string;
  readonly expiresAt: Date | null;
  readonly registrar: string | null;
  readonly source: 'rdap' | 'whois';
}

/** Expired is down; within expiryErrorDays down; within expiryWarningDays degraded. */
export function evaluateDomainExpiry(reg: DomainRegistration, limits: { warningDays: number; errorDays: number }, now: Date): Finding[] {
  if (!reg.expiresAt) return [down('domainLookupFailed', `The registry answer for ${reg.domain} has no expiry date`)];
  const days = daysUntil(reg.expiresAt, now);
  if (reg.expiresAt.getTime() <= now.getTime()) return [down('domainExpired', `${reg.domain} expired on ${reg.expiresAt.toISOString()}`)];
  if (days <= limits.errorDays) return [down('domainExpiresSoon', `${reg.domain} expires in ${days} days`)];
  if (days <= limits.warningDays) return [degraded('domainExpiresSoon', `${reg.domain} expires in ${days} days`)];
  return [];
}

/** Candidate registrable names for a host, longest first: www.example.co.uk, example.co.uk. */
export function registrableCandidates(host: string): string[] {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.').filter(Boolean);
  const names: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) names.push(labels.slice(i).join('.'));
  return names;
}
