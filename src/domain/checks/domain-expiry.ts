import type { DomainExpiry } from '../watches/watch-results';
import { degraded, down, type CheckResult, type Finding } from './check-result';
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

/** The spec's expiry object of a customer domain (defined once, by the tenancy context that serves it). */
export type DomainExpiryState = DomainExpiry;

export const EMPTY_DOMAIN_EXPIRY: DomainExpiryState = {
  domainExpiresAt: null,
  domainRegistrar: null,
  isExpired: false,
  lastError: null,
  lastCheckedAt: null,
  lastChangedAt: null,
  lastNotifiedWarningAt: null,
  lastNotifiedErrorAt: null,
  lastNotifiedExpiredAt: null,
};

/**
 * Folds a domainExpiry check into the stored state. A failed lookup keeps the last known expiry
 * and records lastError; lastChangedAt moves when the expiry date, registrar or expired flag change
 * (a renewal moves the date).
 */
export function applyDomainExpiryResult(previous: DomainExpiryState, result: CheckResult, now: Date): DomainExpiryState {
  const seen = result.evidence.domain;
  if (!seen || !seen.expiresAt) {
    return { ...previous, lastError: result.reason?.message ?? 'Lookup failed', lastCheckedAt: now };
  }
  const expiresAt = new Date(seen.expiresAt);
  const isExpired = expiresAt.getTime() <= now.getTime();
  const changed =
    previous.domainExpiresAt?.getTime() !== expiresAt.getTime() ||
    previous.domainRegistrar !== seen.registrar ||
    previous.isExpired !== isExpired;
  return {
    ...previous,
    domainExpiresAt: expiresAt,
    domainRegistrar: seen.registrar,
    isExpired,
    lastError: null,
    lastCheckedAt: now,
    lastChangedAt: changed ? now : previous.lastChangedAt,
  };
}
