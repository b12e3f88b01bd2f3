import { expect } from 'chai';
import { RunPublicTool, TOOLS_RATE_LIMIT } from '../../../../src/application/checks/run-public-tool';
import type { RunCheck } from '../../../../src/application/checks/run-check';
import type { CheckRequest } from '../../../../src/domain/checks/check-request';
import { down, type Finding } from '../../../../src/domain/checks/check-result';
import { FakeRateLimiter, FakeTargetPolicy } from '../../../support/fakes/shared-fakes';
import { aCheckResult, anActor } from '../../../support/builders';
import { expectAppErrorAsync } from '../../../support/expect-app-error';

/** RunCheck (a use case, not a port) answering every request with these findings; it keeps the requests. */
class FakeRunCheck {
  readonly requests: CheckRequest[] = [];
  constructor(private readonly findings: Finding[] = []) {}
  async execute(request: CheckRequest) {
    this.requests.push(request);
    return aCheckResult()
      .ofKind(request.kind)
      .withFindings(...this.findings)
      .build();
  }
}

/** Addresses outside 10/8 are public. */
const policy = new FakeTargetPolicy((address) => !address.startsWith('10.'));
const actor = (tokenId = 't1') => anActor().asAgent(['tools.public']).withRole('readonly').with({ tokenId }).build();
const tool = (runCheck: FakeRunCheck, limiter = new FakeRateLimiter()) =>
  new RunPublicTool(runCheck as unknown as RunCheck, policy, limiter);

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
    await expectAppErrorAsync(tool(runCheck, limiter).execute(actor(), { tool: 'dnsblLookup', ip: '1.2.3.4' }), 'rateLimited', {
      retryAfter: 42,
    });
    await tool(runCheck, limiter).execute(actor('t2'), { tool: 'dnsblLookup', ip: '1.2.3.4' });
    expect(runCheck.requests).to.have.length(TOOLS_RATE_LIMIT.limit + 1);
  });

  it('answers invalidHostname for a target the policy rejects', async () => {
    const rejected = new FakeRunCheck([down('targetRejected', '10.0.0.1 is not a public address')]);
    await expectAppErrorAsync(tool(rejected).execute(actor(), { tool: 'portCheck', host: '10.0.0.1', port: 22 }), 'invalidHostname');
    await expectAppErrorAsync(tool(new FakeRunCheck()).execute(actor(), { tool: 'dnsblLookup', ip: '10.0.0.1' }), 'invalidHostname');
  });

  it('returns other failures as a down result, not an error', async () => {
    const refused = new FakeRunCheck([down('connectionRefused', 'refused')]);
    const result = await tool(refused).execute(actor(), { tool: 'portCheck', host: 'example.com', port: 1 });
    expect(result.reason?.code).to.equal('connectionRefused');
  });
});
