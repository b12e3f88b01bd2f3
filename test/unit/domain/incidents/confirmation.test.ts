import { expect } from 'chai';
import { AlertState } from '../../../../src/domain/incidents/alert-state';
import type { AlertPolicy } from '../../../../src/domain/results/alert-policy';
import { confirmationAt, confirmationsOf, retryIntervalMs } from '../../../../src/domain/incidents/confirmation';
import type { CheckStatus } from '../../../../src/domain/results/check-status';

const t0 = new Date('2026-11-22T10:00:00Z');
const SECOND = 1000;
const policy = (overrides: Partial<AlertPolicy> = {}): AlertPolicy => ({
  consecutiveChecks: 2,
  retryIntervalSeconds: 20,
  locationThreshold: '0.50',
  locationThresholdCount: 1,
  reminderIntervalMinutes: 0,
  sslExpiryReminderDays: null,
  dnsblReminderDays: null,
  locations: ['eu'],
  ...overrides,
});

/**
 * A monitor fed results as the engine does (observe, then the incident the rules open or resolve),
 * answering for each result when the rule asks for a confirmation (seconds after t0, or null).
 */
function monitor(p: AlertPolicy, suppressed = false) {
  const state = new AlertState({ monitorId: 7, organizationId: 1, customerId: 2, checkIntervalSeconds: 300, now: t0 });
  return {
    state,
    check(location: string, status: CheckStatus, seconds: number, options: { suppressed?: boolean } = {}): number | null {
      const checkedAt = new Date(t0.getTime() + seconds * SECOND);
      const previousStatus = state.location(location)?.status ?? null;
      const context = { suppressed: options.suppressed ?? suppressed, remindersMuted: false };
      for (const decision of state.observe(
        { location, status, reasonCode: status === 'up' ? null : 'httpStatus', checkedAt },
        p,
        context,
      )) {
        if (decision.kind === 'open') state.incidentOpened(1, checkedAt);
      }
      const at = confirmationAt({ state, policy: p, location, status, checkedAt, previousStatus, suppressed: context.suppressed });
      return at === null ? null : (at.getTime() - t0.getTime()) / SECOND;
    },
  };
}

describe('confirmation re-checks (domain)', () => {
  it('a failure short of alertConsecutiveChecks is confirmed after the retry interval, and the next failure opens the incident', () => {
    const m = monitor(policy({ consecutiveChecks: 2 }));
    expect(m.check('eu', 'up', 0)).to.equal(null);
    expect(m.check('eu', 'down', 300), 'the first failure: confirm 20 s later').to.equal(320);
    expect(m.check('eu', 'down', 320), 'the confirmation fails: the incident opens, nothing more to confirm').to.equal(null);
    expect(m.state.openIncidentId).to.equal(1);
    expect(m.check('eu', 'down', 600), 'down while the incident is open: back to the interval').to.equal(null);
  });

  it('with alertConsecutiveChecks 3, confirms twice, then alerts', () => {
    const m = monitor(policy({ consecutiveChecks: 3, retryIntervalSeconds: 30 }));
    expect([m.check('eu', 'down', 0), m.check('eu', 'down', 30), m.check('eu', 'down', 60)]).to.deep.equal([30, 60, null]);
    expect(m.state.openIncidentId).to.equal(1);
  });

  it('fail then recover inside the confirmation: no incident, and nothing more to confirm', () => {
    const m = monitor(policy());
    expect(m.check('eu', 'down', 0)).to.equal(20);
    expect(m.check('eu', 'up', 20)).to.equal(null);
    expect(m.state.openIncidentId).to.equal(null);
    expect(m.check('eu', 'up', 300)).to.equal(null);
  });

  it('flapping costs one confirmation per failure at most, never a chain of its own', () => {
    const m = monitor(policy({ consecutiveChecks: 3 }));
    const asked = [0, 20, 300, 320, 600].map((s, i) => m.check('eu', i % 2 === 0 ? 'down' : 'up', s));
    expect(asked).to.deep.equal([20, null, 320, null, 620]);
    expect(asked.filter((a) => a !== null)).to.have.length(3);
    expect(m.state.openIncidentId).to.equal(null);
  });

  it('during maintenance nothing is confirmed (nothing can alert); after it, the next failure is', () => {
    const m = monitor(policy());
    expect(m.check('eu', 'down', 0, { suppressed: true })).to.equal(null);
    expect(m.check('eu', 'down', 300, { suppressed: true })).to.equal(null);
    expect(m.state.openIncidentId).to.equal(null);
    expect(m.check('eu', 'down', 600), 'the window is over: its streak already counts, the incident opens').to.equal(null);
    expect(m.state.openIncidentId).to.equal(1);
  });

  it('a quorum split: the location that reaches its count asks once more, so the others confirm in the same round', () => {
    const m = monitor(
      policy({ consecutiveChecks: 1, locations: ['eu', 'us', 'asia'], locationThreshold: '0.50', locationThresholdCount: 1 }),
    );
    expect(m.check('eu', 'down', 0), 'one of three (two needed): confirm from all').to.equal(20);
    expect(m.check('us', 'up', 20)).to.equal(null);
    expect(m.check('asia', 'up', 20)).to.equal(null);
    expect(m.check('eu', 'down', 20), 'still alone: back to the interval').to.equal(null);
    expect(m.check('us', 'down', 300), 'a second location fails: the quorum is met at once').to.equal(null);
    expect(m.state.openIncidentId).to.equal(1);
  });

  it('a recovery while other locations keep the incident open is confirmed from all of them once', () => {
    const m = monitor(policy({ consecutiveChecks: 1, locations: ['eu', 'us', 'asia'], locationThreshold: '0', locationThresholdCount: 2 }));
    m.check('eu', 'down', 0);
    m.check('us', 'down', 0);
    m.check('asia', 'down', 0);
    expect(m.state.openIncidentId).to.equal(1);
    expect(m.check('eu', 'up', 300), 'two still down: recovery not decided, confirm').to.equal(320);
    expect(m.check('us', 'up', 320), 'one left down: fewer than two, resolved').to.equal(null);
    expect(m.state.openIncidentId).to.equal(null);
    expect(m.check('eu', 'up', 600), 'steady: nothing').to.equal(null);
  });

  it('a single location recovering resolves at once: nothing to confirm', () => {
    const m = monitor(policy({ consecutiveChecks: 1 }));
    m.check('eu', 'down', 0);
    expect(m.check('eu', 'up', 300)).to.equal(null);
    expect(m.state.openIncidentId).to.equal(null);
  });

  it('a location the monitor no longer counts asks for nothing', () => {
    const m = monitor(policy({ locations: ['eu'] }));
    expect(m.check('us', 'down', 0)).to.equal(null);
  });

  it('never confirms sooner than the 10 s floor', () => {
    expect(retryIntervalMs(policy({ retryIntervalSeconds: 3 }))).to.equal(10_000);
    expect(monitor(policy({ retryIntervalSeconds: 3 })).check('eu', 'down', 0)).to.equal(10);
  });

  it('a batch confirms each monitor once, at the earliest time asked', () => {
    const at = (s: number) => new Date(t0.getTime() + s * SECOND);
    expect(
      confirmationsOf([
        { monitorId: 1, confirmAt: at(40) },
        { monitorId: 2, confirmAt: null },
        { monitorId: 1, confirmAt: at(20) },
        { monitorId: 3, confirmAt: at(30) },
      ]),
    ).to.deep.equal([
      { monitorId: 1, at: at(20) },
      { monitorId: 3, at: at(30) },
    ]);
  });
});
