import { expect } from 'chai';
import { evaluateHeartbeat, heartbeatDueAt } from '../../../../src/domain/checks/heartbeat';
import { evaluateDnsAnswers, normalizeDnsValue } from '../../../../src/domain/checks/dns-expectations';
import { evaluatePing, pingSummary } from '../../../../src/domain/checks/icmp';
import { bareTcpFor, defaultPort } from '../../../../src/domain/checks/check-mode';
import { checkResult, NO_TIMINGS } from '../../../../src/domain/checks/check-result';

const codes = (f: { status: string; code: string }[]) => f.map((x) => `${x.status}:${x.code}`);

describe('heartbeat: a missing beat past interval + grace is down', () => {
  const since = new Date('2026-11-22T00:00:00Z');
  const hb = (lastBeatAt: Date | null) => ({
    kind: 'heartbeat' as const,
    lastBeatAt,
    expectingSince: since,
    intervalSeconds: 300,
    graceSeconds: 60,
  });
  it('is up until interval + grace after the last beat, down after', () => {
    const beat = new Date('2026-11-22T01:00:00Z');
    expect(heartbeatDueAt(hb(beat)).toISOString()).to.equal('2026-11-22T01:06:00.000Z');
    expect(evaluateHeartbeat(hb(beat), new Date('2026-11-22T01:06:00Z'))).to.deep.equal([]);
    expect(codes(evaluateHeartbeat(hb(beat), new Date('2026-11-22T01:06:01Z')))).to.deep.equal(['down:heartbeatMissing']);
  });
  it('counts from when monitoring started when no beat arrived yet', () => {
    expect(codes(evaluateHeartbeat(hb(null), new Date('2026-11-22T00:06:01Z')))).to.deep.equal(['down:heartbeatMissing']);
  });
});

describe('DNS expected values', () => {
  it('normalizes case, quotes and trailing dots', () => {
    expect(normalizeDnsValue('10 MX.Example.com.')).to.equal('10 mx.example.com');
    expect(normalizeDnsValue('"v=spf1 -all"')).to.equal('v=spf1 -all');
  });
  it('needs every expected value among the answers; no answer is down', () => {
    expect(evaluateDnsAnswers(['1.1.1.1', '2.2.2.2'], ['2.2.2.2'])).to.deep.equal([]);
    expect(codes(evaluateDnsAnswers(['1.1.1.1'], ['2.2.2.2']))).to.deep.equal(['down:dnsValueMismatch']);
    expect(codes(evaluateDnsAnswers([], []))).to.deep.equal(['down:dnsNoAnswer']);
  });
});

describe('ICMP loss and RTT', () => {
  const req = { kind: 'icmp' as const, host: 'h', packets: 4, maxPacketLossPercent: 30, maxRttMs: 100, timeoutSeconds: 5 };
  it('summarizes loss and RTT', () => {
    expect(pingSummary({ sent: 4, rtts: [1, 3] })).to.deep.equal({
      sent: 4,
      received: 2,
      lossPercent: 50,
      rttMs: { min: 1, avg: 2, max: 3 },
    });
  });
  it('is down with no reply or loss over the threshold, degraded for lesser loss or slow RTT', () => {
    expect(codes(evaluatePing(req, { sent: 4, rtts: [] }))).to.deep.equal(['down:hostUnreachable']);
    expect(codes(evaluatePing(req, { sent: 4, rtts: [1, 1] }))).to.deep.equal(['down:packetLoss']);
    expect(codes(evaluatePing(req, { sent: 4, rtts: [1, 1, 1] }))).to.deep.equal(['degraded:packetLoss']);
    expect(codes(evaluatePing(req, { sent: 4, rtts: [150, 150, 150, 150] }))).to.deep.equal(['degraded:rttTooHigh']);
    expect(evaluatePing(req, { sent: 4, rtts: [1, 1, 1, 1] })).to.deep.equal([]);
  });
});

describe('check modes and results', () => {
  const ssh = {
    kind: 'ssh' as const,
    host: 'h',
    port: null,
    mode: 'tcp' as const,
    credentials: { username: 'u', password: 'p' },
    timeoutSeconds: 5,
  };
  it('tcp mode is a bare port check on the protocol default port, without credentials', () => {
    expect(bareTcpFor(ssh)).to.deep.equal({ kind: 'tcp', host: 'h', port: 22, timeoutSeconds: 5 });
    expect(bareTcpFor({ ...ssh, mode: 'protocol' })).to.equal(null);
  });
  it('IMAP/POP need an explicit port in tcp mode; defaults follow the TLS mode', () => {
    const imap = {
      kind: 'imap' as const,
      host: 'h',
      port: null,
      mode: 'tcp' as const,
      tls: 'implicit' as const,
      credentials: null,
      timeoutSeconds: 5,
    };
    expect(bareTcpFor(imap)).to.equal(null);
    expect(defaultPort({ ...imap, mode: 'protocol' })).to.equal(993);
    expect(
      defaultPort({
        kind: 'smtp',
        host: 'h',
        port: null,
        mode: 'protocol',
        tls: 'implicit',
        credentials: null,
        sslNoticeDays: null,
        timeoutSeconds: 5,
      }),
    ).to.equal(465);
  });
  it('the worst finding is the status and the reason', () => {
    const result = checkResult({
      kind: 'http',
      timings: NO_TIMINGS(1),
      evidence: {},
      checkedAt: new Date(),
      findings: [
        { status: 'degraded', code: 'responseTooSlow', message: 'slow' },
        { status: 'down', code: 'keywordMissing', message: 'missing' },
      ],
    });
    expect(result.status).to.equal('down');
    expect(result.reason?.code).to.equal('keywordMissing');
    expect(checkResult({ kind: 'http', timings: NO_TIMINGS(1), evidence: {}, checkedAt: new Date(), findings: [] })).to.include({
      status: 'up',
      reason: null,
    });
  });
});
