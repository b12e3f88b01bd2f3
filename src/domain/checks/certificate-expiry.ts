import { degraded, down, type Finding } from './check-result';

const DAY_MS = 86_400_000;

/** Whole days left until `validTo` (negative once expired). */
export const daysUntil = (validTo: Date, now: Date): number => Math.floor((validTo.getTime() - now.getTime()) / DAY_MS);

export interface CertificateFacts {
  readonly validFrom: Date;
  readonly validTo: Date;
  readonly authorized: boolean;
  readonly authorizationError: string | null;
}

/**
 * Certificate validity and days to expiry: an untrusted chain or a name mismatch is down (unless
 * verification is off), an expired or not-yet-valid certificate is down, and one expiring within
 * `noticeDays` is degraded.
 */
export function evaluateCertificate(cert: CertificateFacts, options: { noticeDays: number; verify: boolean }, now: Date): Finding[] {
  const days = daysUntil(cert.validTo, now);
  if (cert.validTo.getTime() <= now.getTime()) {
    return [down('sslExpired', `Certificate expired on ${cert.validTo.toISOString()}`)];
  }
  if (cert.validFrom.getTime() > now.getTime()) {
    return [down('sslInvalid', `Certificate not valid before ${cert.validFrom.toISOString()}`)];
  }
  const findings: Finding[] = [];
  if (options.verify && !cert.authorized) {
    findings.push(down('sslInvalid', `Certificate not trusted: ${cert.authorizationError ?? 'verification failed'}`));
  }
  if (days <= options.noticeDays) {
    findings.push(degraded('sslExpiringSoon', `Certificate expires in ${days} day${days === 1 ? '' : 's'}`));
  }
  return findings;
}
