import type { CheckKind } from './check-request';

/** `degraded` is the warning level: the target answers but an assertion warns (slow, cert expiring...). */
export type CheckStatus = 'up' | 'degraded' | 'down';

/** Why a check is not up: stable codes for alert rules, incidents and history. */
export type CheckReasonCode =
  | 'targetRejected'
  | 'dnsUnresolvable'
  | 'connectionRefused'
  | 'connectionTimeout'
  | 'connectionFailed'
  | 'timeout'
  | 'tlsHandshakeFailed'
  | 'sslInvalid'
  | 'sslExpired'
  | 'sslExpiringSoon'
  | 'unexpectedStatus'
  | 'keywordMissing'
  | 'keywordFound'
  | 'pageTooSmall'
  | 'pageTooLarge'
  | 'responseTooSlow'
  | 'httpsRedirectMissing'
  | 'tooManyRedirects'
  | 'invalidRedirect'
  | 'protocolError'
  | 'starttlsUnavailable'
  | 'authenticationFailed'
  | 'dnsNoAnswer'
  | 'dnsValueMismatch'
  | 'dnsQueryFailed'
  | 'packetLoss'
  | 'hostUnreachable'
  | 'rttTooHigh'
  | 'heartbeatMissing'
  | 'domainExpired'
  | 'domainExpiresSoon'
  | 'domainLookupFailed'
  | 'dnsblListed'
  | 'dnsblLookupFailed'
  /** A scenario step failed: no element for a selector in time, a title or URL expectation unmet. */
  | 'stepFailed'
  /** An API chain step's JSON path or header assertion did not hold. */
  | 'assertionFailed'
  /** An API chain step's response did not hold the value a later step needs. */
  | 'extractionFailed';

export interface Finding {
  readonly status: 'degraded' | 'down';
  readonly code: CheckReasonCode;
  readonly message: string;
}

/**
 * When each phase of a check ended, in milliseconds from the check's start on one monotonic clock
 * (cumulative, like curl's time_namelookup ... time_total), rounded to 0.1 ms; null when the phase
 * did not happen (no DNS for an IP, no TLS over plain TCP, no connection made). Always ordered:
 * dnsMs <= connectMs <= tlsMs <= firstByteMs <= totalMs over the phases present. With redirects the
 * phases are those of the connection that gave the final answer (earlier hops lie before them).
 */
export interface CheckTimings {
  readonly dnsMs: number | null;
  readonly connectMs: number | null;
  readonly tlsMs: number | null;
  readonly firstByteMs: number | null;
  readonly totalMs: number;
}

export interface CertificateSummary {
  readonly subject: string;
  readonly issuer: string;
  readonly validFrom: string;
  readonly validTo: string;
  readonly daysRemaining: number;
  /** SHA-256, colon-separated hex. */
  readonly fingerprint: string;
}

export interface CertificateEvidence extends CertificateSummary {
  readonly subjectAltNames: readonly string[];
  /** Chain and host name verified against the trusted roots. */
  readonly authorized: boolean;
  readonly authorizationError: string | null;
  /** Issuers above the leaf, as far as the peer sent them. */
  readonly chain: readonly CertificateSummary[];
}

/** One blocklist that lists an IP. */
export interface DnsblListing {
  readonly name: string;
  readonly reason: string;
  /** The blocklist zone queried, e.g. zen.spamhaus.org. */
  readonly listKey: string;
  readonly delistUrl: string;
  /** The A record the zone answered, e.g. 127.0.0.2. */
  readonly resultCode: string;
}

/** What was seen, kept with the result: only the sections the kind produced are present. */
export interface CheckEvidence {
  readonly target?: { readonly host: string; readonly address: string | null; readonly port: number | null };
  readonly http?: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly finalUrl: string;
    readonly redirects: readonly { readonly url: string; readonly status: number }[];
    readonly bodyBytes: number;
    readonly httpsRedirect?: { readonly url: string; readonly location: string | null };
  };
  readonly certificate?: CertificateEvidence;
  readonly dns?: { readonly resolver: string; readonly recordType: string; readonly answers: readonly string[] };
  readonly banner?: string;
  readonly tls?: boolean;
  readonly authenticated?: boolean;
  readonly ping?: {
    readonly sent: number;
    readonly received: number;
    readonly lossPercent: number;
    readonly rttMs: { readonly min: number; readonly avg: number; readonly max: number } | null;
  };
  readonly heartbeat?: { readonly lastBeatAt: string | null; readonly dueAt: string };
  readonly domain?: {
    readonly domain: string;
    readonly expiresAt: string | null;
    readonly registrar: string | null;
    readonly daysRemaining: number | null;
    readonly source: 'rdap' | 'whois';
  };
  readonly dnsbl?: {
    readonly ip: string;
    readonly listings: readonly DnsblListing[];
    readonly checkedZones: number;
    readonly failedZones: readonly string[];
  };
  readonly browser?: BrowserEvidence;
  readonly apiChain?: ApiChainEvidence;
}

/** One step of an API chain as run: secrets are redacted from every string, the body excerpt is kept for the failing step only. */
export interface ApiChainStepEvidence {
  readonly index: number;
  readonly name: string;
  readonly method: string;
  readonly url: string;
  /** 0 when no answer came (refused, unreachable, timed out). */
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyBytes: number;
  /** The body was longer than the per-step limit and was cut. */
  readonly truncated: boolean;
  readonly address: string | null;
  readonly timings: { readonly connectMs: number | null; readonly firstByteMs: number | null; readonly totalMs: number };
  readonly passed: boolean;
  readonly bodyExcerpt?: string;
}

/** What an API chain did: the steps run, in order (the failing one last), and which failed. */
export interface ApiChainEvidence {
  readonly steps: readonly ApiChainStepEvidence[];
  /** Index of the failing step; null when every step passed. */
  readonly failedStep: number | null;
}

/** What a scripted-browser scenario did: the steps run (the failed one last), where it ended, what it refused. */
export interface BrowserEvidence {
  /** line is null for opening the website's url, which comes before the script's steps. */
  readonly steps: readonly { readonly line: number | null; readonly step: string; readonly durationMs: number; readonly passed: boolean }[];
  readonly finalUrl: string | null;
  readonly title: string | null;
  /** The failure screenshot (GET /api/websites/{id}/screenshots/{screenshotId}); null when none was kept. */
  readonly screenshotId: string | null;
  /** Connections the target policy refused or that failed (page resources included), at most 20. */
  readonly blocked: readonly { readonly target: string; readonly code: CheckReasonCode; readonly message: string }[];
}

export interface CheckResult {
  readonly kind: CheckKind;
  readonly status: CheckStatus;
  /** The worst finding (the reason for failure); null when up. */
  readonly reason: Finding | null;
  /** Every assertion that did not pass, worst first. */
  readonly findings: readonly Finding[];
  readonly timings: CheckTimings;
  readonly evidence: CheckEvidence;
  readonly checkedAt: Date;
}

const RANK: Record<CheckStatus, number> = { up: 0, degraded: 1, down: 2 };

export const down = (code: CheckReasonCode, message: string): Finding => ({ status: 'down', code, message });
export const degraded = (code: CheckReasonCode, message: string): Finding => ({ status: 'degraded', code, message });

/** Milliseconds to the nearest 0.1 ms (finer digits of a check's phases are noise). */
export const roundMs = (ms: number): number => Math.round(ms * 10) / 10;

export const NO_TIMINGS = (totalMs: number): CheckTimings => ({
  dnsMs: null,
  connectMs: null,
  tlsMs: null,
  firstByteMs: null,
  totalMs: roundMs(totalMs),
});

/**
 * The timings of a check from the instants its phases ended, all read from one monotonic clock
 * (null: the phase did not happen). Each phase is counted from `start` and never before the phase
 * preceding it, nor after `end`: an instant out of order (a clock read before an earlier phase's
 * callback ran) is moved up to the phase before it, so the order holds whatever the probe saw.
 * Rounding to 0.1 ms preserves the order. Positional, so a check allocates nothing more than its result.
 */
export function phaseTimings(
  start: number,
  dnsAt: number | null,
  connectAt: number | null,
  tlsAt: number | null,
  firstByteAt: number | null,
  end: number,
): CheckTimings {
  const last = end < start ? start : end;
  const dns = dnsAt === null ? null : within(dnsAt, start, last);
  const connect = connectAt === null ? null : within(connectAt, dns ?? start, last);
  const tls = tlsAt === null ? null : within(tlsAt, connect ?? dns ?? start, last);
  const firstByte = firstByteAt === null ? null : within(firstByteAt, tls ?? connect ?? dns ?? start, last);
  return {
    dnsMs: dns === null ? null : roundMs(dns - start),
    connectMs: connect === null ? null : roundMs(connect - start),
    tlsMs: tls === null ? null : roundMs(tls - start),
    firstByteMs: firstByte === null ? null : roundMs(firstByte - start),
    totalMs: roundMs(last - start),
  };
}

const within = (instant: number, floor: number, ceiling: number) => (instant < floor ? floor : instant > ceiling ? ceiling : instant);

/** The result a set of findings adds up to: the worst finding decides the status and the reason. */
export function checkResult(props: {
  kind: CheckKind;
  findings: readonly Finding[];
  timings: CheckTimings;
  evidence: CheckEvidence;
  checkedAt: Date;
}): CheckResult {
  // Most results have no finding or one: no copy to sort then. One shape for every result (a
  // literal, not a spread of the props), so the code that reads results stays monomorphic.
  const given = props.findings;
  const findings = given.length === 0 ? NO_FINDINGS : given.length === 1 ? [given[0]!] : [...given].sort(byRank);
  const reason = findings[0] ?? null;
  return {
    kind: props.kind,
    findings,
    timings: props.timings,
    evidence: props.evidence,
    checkedAt: props.checkedAt,
    status: reason?.status ?? 'up',
    reason,
  };
}

const NO_FINDINGS: readonly Finding[] = Object.freeze([]);
const byRank = (a: Finding, b: Finding) => RANK[b.status] - RANK[a.status];
