import type { CheckRequest, DnsRecordType } from '../../domain/checks/check-request';
import type { CheckResult } from '../../domain/checks/check-result';
import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { RateLimiter, RateLimitRule } from '../shared/rate-limiter';
import type { TargetPolicy } from '../shared/target-policy';
import type { RunCheck } from './run-check';

export type ToolRequest =
  | { tool: 'dnsLookup'; domain: string; type: DnsRecordType }
  | { tool: 'sslCertificate'; host: string; port: number }
  | { tool: 'portCheck'; host: string; port: number }
  | { tool: 'dnsblLookup'; ip: string }
  | { tool: 'domainExpiry'; domain: string };

/** Every tool call counts against one budget per caller. */
export const TOOLS_RATE_LIMIT: RateLimitRule = { name: 'public-tools', limit: 30, windowSeconds: 60 };
const TOOL_TIMEOUT_SECONDS = 10;

/** The caller a limit is counted for: the user behind a session, or the token (API or agent). */
const callerKey = (actor: Actor): string =>
  actor.kind === 'session' ? `user:${actor.userId}` : `${actor.kind}:${actor.tokenId ?? actor.userId}`;

/**
 * The public tools (DNS lookup, SSL certificate, port check, DNSBL lookup, domain expiry): the same
 * checkers monitors use, rate-limited per caller, refusing non-public targets with invalidHostname.
 */
export class RunPublicTool {
  constructor(
    private readonly runCheck: RunCheck,
    private readonly targets: TargetPolicy,
    private readonly limiter: RateLimiter,
  ) {}

  async execute(actor: Actor, input: ToolRequest): Promise<CheckResult> {
    const decision = await this.limiter.hit(TOOLS_RATE_LIMIT, callerKey(actor));
    if (!decision.allowed) throw new AppError('rateLimited', { retryAfter: decision.retryAfterSeconds });
    if (input.tool === 'dnsblLookup' && !this.targets.isAllowedAddress(input.ip)) throw new AppError('invalidHostname');
    const result = await this.runCheck.execute(toCheckRequest(input));
    if (result.reason?.code === 'targetRejected') throw new AppError('invalidHostname', {}, result.reason.message);
    return result;
  }
}

function toCheckRequest(input: ToolRequest): CheckRequest {
  const timeoutSeconds = TOOL_TIMEOUT_SECONDS;
  switch (input.tool) {
    case 'dnsLookup':
      return { kind: 'dns', name: input.domain, recordType: input.type, resolver: null, expectedValues: [], timeoutSeconds };
    case 'sslCertificate':
      return { kind: 'tls', host: input.host, port: input.port, noticeDays: 14, timeoutSeconds };
    case 'portCheck':
      return { kind: 'tcp', host: input.host, port: input.port, timeoutSeconds };
    case 'dnsblLookup':
      return { kind: 'dnsbl', ip: input.ip, timeoutSeconds };
    case 'domainExpiry':
      return { kind: 'domainExpiry', domain: input.domain, warningDays: 30, errorDays: 7, timeoutSeconds };
  }
}
