import { expect } from 'chai';
import { MeteredOutcomeRecorder } from '../../../../src/application/observability/metered-outcome-recorder';
import type { CheckOutcome } from '../../../../src/application/scheduling/ports';
import { checkResult, down, NO_TIMINGS } from '../../../../src/domain/checks/check-result';
import { FakeEngineMetrics } from '../../../support/fakes/observability-fakes';
import { FakeOutcomeRecorder } from '../../../support/fakes/scheduling-fakes';

function anOutcome(kind: 'http' | 'tcp', location: string, slot: string, startedAt: string, failed = false): CheckOutcome {
  const request =
    kind === 'http'
      ? ({ kind, url: 'https://example.com/' } as unknown as CheckOutcome['planned']['request'])
      : ({ kind, host: 'example.com', port: 443, timeoutSeconds: 5 } as CheckOutcome['planned']['request']);
  return {
    planned: {
      check: { monitorId: 1, location, slot: new Date(slot), intervalMs: 60_000, phaseMs: 0 },
      request,
      organizationId: 1,
      customerId: 1,
    },
    result: checkResult({
      kind,
      findings: failed ? [down('connectionRefused', 'refused')] : [],
      timings: NO_TIMINGS(5),
      evidence: {},
      checkedAt: new Date(startedAt),
    }),
    startedAt: new Date(startedAt),
  };
}

describe('MeteredOutcomeRecorder', () => {
  const now = new Date('2026-01-01T00:01:00Z');
  const until = new Date('2026-01-01T00:02:00Z');

  it('reports every outcome handed over with its kind, location, status and start lateness, then the recorded count', async () => {
    const metrics = new FakeEngineMetrics();
    const inner = new FakeOutcomeRecorder();
    const outcomes = [
      anOutcome('http', 'eu-west', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.180Z'),
      anOutcome('tcp', 'us-east', '2026-01-01T00:00:10.000Z', '2026-01-01T00:00:12.500Z', true),
    ];

    const answer = await new MeteredOutcomeRecorder(inner, metrics).record('w', outcomes, now, until);

    expect(answer).to.deep.equal({ recorded: 2, dropped: 0, fenced: false });
    expect(inner.batches).to.deep.equal([outcomes]);
    expect(metrics.checks).to.deep.equal([
      { kind: 'http', location: 'eu-west', status: 'up', latenessMs: 180 },
      { kind: 'tcp', location: 'us-east', status: 'down', latenessMs: 2_500 },
    ]);
    expect(metrics.rounds).to.deep.equal([{ recorded: 2, dropped: 0 }]);
  });

  it('counts a start before its slot as on time, and a fenced round as dropped results', async () => {
    const metrics = new FakeEngineMetrics();
    const inner = new FakeOutcomeRecorder();
    inner.fenced = true;

    await new MeteredOutcomeRecorder(inner, metrics).record(
      'w',
      [anOutcome('http', 'eu-west', '2026-01-01T00:00:05Z', '2026-01-01T00:00:04Z')],
      now,
      until,
    );

    expect(metrics.checks.map((c) => c.latenessMs)).to.deep.equal([0]);
    expect(metrics.rounds).to.deep.equal([{ recorded: 0, dropped: 1 }]);
  });

  it('still counts the checks when recording fails, and lets the failure through', async () => {
    const metrics = new FakeEngineMetrics();
    const inner = new FakeOutcomeRecorder();
    inner.failure = new Error('database down');

    let failure: unknown;
    try {
      await new MeteredOutcomeRecorder(inner, metrics).record(
        'w',
        [anOutcome('http', 'eu-west', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')],
        now,
        until,
      );
    } catch (error) {
      failure = error;
    }

    expect((failure as Error).message).to.equal('database down');
    expect(metrics.checks).to.have.length(1);
    expect(metrics.rounds).to.deep.equal([]);
  });
});
