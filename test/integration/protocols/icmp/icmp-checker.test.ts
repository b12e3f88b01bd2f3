import { expect } from 'chai';
import { FpingIcmpChecker } from '../../../../src/infrastructure/protocols/icmp/fping-icmp-checker';
import { FpingBatchProber } from '../../../../src/infrastructure/protocols/icmp/fping-batch-prober';
import type { TargetPolicy } from '../../../../src/application/shared/target-policy';
import { LoopbackTargetPolicy, RejectingTargetPolicy } from '../../../support/loopback-target-policy';
import { checkContext } from '../../../support/check-requests';

/** Admits the TEST-NET address too, which has no route inside the test's network namespace. */
const withTestNet: TargetPolicy = {
  vet: async (host) => (host === '192.0.2.1' ? { ok: true, hostname: host, addresses: [host] } : new LoopbackTargetPolicy().vet(host)),
  isAllowedAddress: () => true,
};

describe('ICMP checker (fping, batched)', () => {
  const request = (host: string) => ({
    kind: 'icmp' as const,
    host,
    packets: 3,
    maxPacketLossPercent: 20,
    maxRttMs: null,
    timeoutSeconds: 2,
  });

  it('pings loopback: up with loss and RTT; an unreachable address is down; both in one batch', async () => {
    const checker = new FpingIcmpChecker(withTestNet, new FpingBatchProber());
    const [up, unreachable] = await Promise.all([
      checker.check(request('127.0.0.1'), checkContext()),
      checker.check(request('192.0.2.1'), checkContext()),
    ]);
    expect(up.status).to.equal('up');
    expect(up.evidence.ping).to.include({ sent: 3, received: 3, lossPercent: 0 });
    expect(up.evidence.ping?.rttMs?.avg).to.be.a('number');
    expect(unreachable.status).to.equal('down');
    expect(unreachable.reason?.code).to.equal('hostUnreachable');
  });

  it('refuses a target the policy rejects', async () => {
    const result = await new FpingIcmpChecker(new RejectingTargetPolicy(), new FpingBatchProber()).check(
      request('127.0.0.1'),
      checkContext(),
    );
    expect(result.reason?.code).to.equal('targetRejected');
  });

  it('without fping installed, is down with a reason naming the package to install', async () => {
    const result = await new FpingIcmpChecker(new LoopbackTargetPolicy(), new FpingBatchProber('fping-not-installed-here')).check(
      request('127.0.0.1'),
      checkContext(),
    );
    expect(result.status).to.equal('down');
    expect(result.reason?.message).to.equal(
      'fping-not-installed-here is not installed (needed for ICMP (ping) checks): install the Debian package fping (apt-get install -y fping)',
    );
  });
});
