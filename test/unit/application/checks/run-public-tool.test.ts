import { expect } from 'chai';
import { RunPublicTool, TOOLS_RATE_LIMIT } from '../../../../src/application/checks/run-public-tool';
import type { RunCheck } from '../../../../src/application/checks/run-check';
import type { Actor } from '../../../../src/application/shared/actor';
import type { RateLimiter, RateLimitRule } from '../../../../src/application/shared/rate-limiter';
import type { TargetPolicy } from '../../../../src/application/shared/target-policy';
import type { CheckRequest } from '../../../../src/domain/checks/check-request';
import { checkResult, down, NO_TIMINGS, type Finding } from '../../../../src/domain/checks/check-result';

/** Counts hits per rule and key in memory, like the PostgreSQL limiter. */
class FakeRateLimiter implements RateLimiter {
  readonly counts = new Map<string, number>();
  async hit(rule: RateLimitRule, key: string) {
    const n = (this.counts.get(`${rule.name}:${key}`) ?? 0) + 1;
    this.counts.set(`${rule.name}:${key}`, n);
    return { allowed: n <= rule.limit, remaining: Math.max(0, rule.limit - n), retryAfterSeconds: 42 };
  }
}

class FakeRunCheck {
  readonly requests: CheckRequest[] = [];
  constructor(private readonly findings: Finding[] = []) {}
  async execute(request: CheckRequest) {
    this.requests.push(request);
    return checkResult({ kind: request.kind, findings: this.findings, timings: NO_TIMINGS(1), evidence: {}, checkedAt: new Date() });
  }
}

const publicOnly: TargetPolicy = { vet: async () => ({ ok: false, reason: 'nonPublicAddress' }), isAllowedAddress: (a) => !a.startsWith('10.') };
const actor = (over: Partial<Actor> = {}): Actor => ({
  kind: 'agent', userId: 'u1', role: 'readonly', scope: { organizationId: 1, customerId: null }, isPlatformAdmin: false,
  isPlatformSupporter: false, sessionId: null, tokenId: 't1', mfaEnabled: false, stepUpVerifiedAt: null, agentScopes: ['tools.public'], ...over,
});
const tool = (runCheck: FakeRunCheck, limiter = new FakeRateLimiter()) => new RunPublicTool(runCheck as unknown as RunCheck, publicOnly, limiter);

describe('RunPublicTool', () => {
  it('maps each tool to the check the monitors use', async () => {
    const runCheck = new FakeRunCheck();
    await tool(runCheck).execute(actor(), { tool: 'portCheck', host: 'example.com', port: 443 });
    await tool(runCheck).execute(actor(), { tool: 'dnsLookup', domain: 'example.com', type: 'MX' });
    expect(runCheck.requests).to.deep.equal([
      { kind: 'tcp', host: 'example.com', port: 443, timeoutSeconds: 10 },
      { kind: 'dns', name: 'example.com', recordType: 'MX', resolver: null, expectedValues: [], timeoutSeconds: 10 },
    ]);
  });

  it('answers rateLimited with retryAfter past 30 calls per caller, counting each caller apart', async () => {
    const limiter = new FakeRateLimiter();
    const runCheck = new FakeRunCheck();
    for (let i = 0; i < TOOLS_RATE_LIMIT.limit; i++) await tool(runCheck, limiter).execute(actor(), { tool: 'dnsblLookup', ip: '1.2.3.4' });
    const error = await tool(runCheck, limiter).execute(actor(), { tool: 'dnsblLookup', ip: '1.2.3.4' }).catch((e) => e);
    expect(error).to.have.property('code', 'rateLimited');
    expect(error.details).to.deep.equal({ retryAfter: 42 });
    await tool(runCheck, limiter).execute(actor({ tokenId: 't2' }), { tool: 'dnsblLookup', ip: '1.2.3.4' });
    expect(runCheck.requests).to.have.length(TOOLS_RATE_LIMIT.limit + 1);
  });

  it('answers invalidHostname for a target the policy rejects', async () => {
    const rejected = new FakeRunCheck([down('targetRejected', '10.0.0.1 is not a public address')]);
    const error = await tool(rejected).execute(actor(), { tool: 'portCheck', host: '10.0.0.1', port: 22 }).catch((e) => e);
    expect(error).to.have.property('code', 'invalidHostname');
    const privateIp = await tool(new FakeRunCheck()).execute(actor(), { tool: 'dnsblLookup', ip: '10.0.0.1' }).catch((e) => e);
    expect(privateIp).to.have.property('code', 'invalidHostname');
  });

  it('returns other failures as a down result, not an error', async () => {
    const refused = new FakeRunCheck([down('connectionRefused', 'refused')]);
    const result = await tool(refused).execute(actor(), { tool: 'portCheck', host: 'example.com', port: 1 });
    expect(result.reason?.code).to.equal('connectionRefused');
  });
});
