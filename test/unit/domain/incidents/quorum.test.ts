import { expect } from 'chai';
import { AlertState, type ObserveContext } from '../../../../src/domain/incidents/alert-state';
import type { AlertPolicy } from '../../../../src/domain/results/alert-policy';
import type { AlertDecision } from '../../../../src/domain/incidents/alert-decision';
import { livenessChange, quorumOf } from '../../../../src/domain/incidents/quorum';
import type { CheckStatus } from '../../../../src/domain/results/check-status';

const t0 = new Date('2026-11-22T10:00:00Z');
const MINUTE = 60_000;
const THREE = ['eu', 'us', 'asia'];
const policy = (overrides: Partial<AlertPolicy> = {}): AlertPolicy => ({
  consecutiveChecks: 1,
  retryIntervalSeconds: 20,
  locationThreshold: '0.50',
  locationThresholdCount: 1,
  reminderIntervalMinutes: 0,
  sslExpiryReminderDays: null,
  dnsblReminderDays: null,
  locations: THREE,
  ...overrides,
});
const liveOnly = (...codes: string[]): ObserveContext => ({ suppressed: false, remindersMuted: false, live: new Set(codes) });
const everyLive = liveOnly(...THREE);
const aState = () => new AlertState({ monitorId: 7, organizationId: 1, customerId: 2, checkIntervalSeconds: 60, now: t0 });

/** Feeds results as the use case does (the incident it opens gets id 1). */
function feed(state: AlertState, p: AlertPolicy, results: [string, CheckStatus, number][], context: ObserveContext) {
  const decisions: AlertDecision['kind'][] = [];
  for (const [location, status, minute] of results) {
    const checkedAt = new Date(t0.getTime() + minute * MINUTE);
    for (const decision of state.observe({ location, status, reasonCode: status === 'up' ? null : 'timeout', checkedAt }, p, context)) {
      decisions.push(decision.kind);
      if (decision.kind === 'open') state.incidentOpened(1, checkedAt);
    }
  }
  return decisions;
}

describe('quorum: who votes', () => {
  it('takes the required count from the configured locations and lets only live ones vote', () => {
    const quorum = quorumOf(policy(), [], new Set(['eu', 'us']));
    expect(quorum).to.deep.equal({ configured: THREE, required: 2, voting: ['eu', 'us'], silent: ['asia'], decidable: true });
  });

  it('cannot decide when fewer live locations remain than required', () => {
    expect(quorumOf(policy(), [], new Set(['eu']))).to.include({ required: 2, decidable: false });
    expect(quorumOf(policy(), [], new Set(['eu'])).silent).to.deep.equal(['asia', 'us']);
  });

  it('counts every location as live when liveness is not known, and the heartbeat location always', () => {
    expect(quorumOf(policy(), []).voting).to.deep.equal(THREE);
    const heartbeat = quorumOf(policy({ locations: [] }), ['heartbeat'], new Set());
    expect(heartbeat).to.include({ required: 1, decidable: true });
    expect(heartbeat.voting).to.deep.equal(['heartbeat']);
  });

  it('with no configured locations, judges the locations that reported', () => {
    const quorum = quorumOf(policy({ locations: [] }), ['eu', 'us'], new Set(['us']));
    expect(quorum).to.deep.include({ configured: ['eu', 'us'], required: 1, voting: ['us'], silent: ['eu'], decidable: true });
  });
});

describe('alert rules with silent locations (3 locations, 2 of 3 must agree)', () => {
  it('one silent and one failing: no incident', () => {
    const state = aState();
    expect(
      feed(
        state,
        policy(),
        [
          ['eu', 'down', 0],
          ['eu', 'down', 1],
        ],
        liveOnly('eu', 'us'),
      ),
    ).to.deep.equal([]);
    expect(state.openIncidentId).to.equal(null);
  });

  it('one silent and two failing: an incident', () => {
    const state = aState();
    expect(
      feed(
        state,
        policy(),
        [
          ['eu', 'down', 0],
          ['us', 'down', 0],
        ],
        liveOnly('eu', 'us'),
      ),
    ).to.deep.equal(['open']);
  });

  it("a silent location's old failures never count toward opening", () => {
    const state = aState();
    expect(feed(state, policy(), [['asia', 'down', 0]], everyLive)).to.deep.equal([]);
    // asia falls silent, its failure stays in the state; one live failure is not two.
    expect(feed(state, policy(), [['eu', 'down', 1]], liveOnly('eu', 'us'))).to.deep.equal([]);
    // Back: asia's failure counts again with eu's.
    expect(feed(state, policy(), [['eu', 'down', 2]], everyLive)).to.deep.equal(['open']);
  });

  it('two silent: nothing opens whatever the last live location says', () => {
    const state = aState();
    expect(
      feed(
        state,
        policy(),
        [
          ['eu', 'down', 0],
          ['eu', 'down', 1],
          ['eu', 'down', 2],
        ],
        liveOnly('eu'),
      ),
    ).to.deep.equal([]);
    expect(quorumOf(policy(), [], new Set(['eu'])).decidable).to.equal(false);
  });

  it('decides again as usual when the locations come back', () => {
    const state = aState();
    expect(feed(state, policy(), [['eu', 'down', 0]], liveOnly('eu'))).to.deep.equal([]);
    expect(feed(state, policy(), [['us', 'down', 1]], everyLive)).to.deep.equal(['open']);
    expect(
      feed(
        state,
        policy(),
        [
          ['us', 'up', 2],
          ['eu', 'up', 2],
        ],
        everyLive,
      ),
    ).to.deep.equal(['resolve']);
  });

  it('an open incident is not resolved by silence, nor reminded while undecidable', () => {
    const state = aState();
    const p = policy({ reminderIntervalMinutes: 5 });
    expect(
      feed(
        state,
        p,
        [
          ['eu', 'down', 0],
          ['us', 'down', 0],
        ],
        everyLive,
      ),
    ).to.deep.equal(['open']);
    // us and asia fall silent; eu recovers: too few live locations to say the outage is over.
    expect(feed(state, p, [['eu', 'up', 1]], liveOnly('eu'))).to.deep.equal(['locationReport']);
    expect(feed(state, p, [['eu', 'down', 30]], liveOnly('eu'))).to.deep.equal(['locationReport']);
    expect(state.openIncidentId).to.equal(1);
    // Back: eu recovers, us alone still fails, one of three: the incident resolves.
    expect(feed(state, p, [['eu', 'up', 31]], everyLive)).to.deep.equal(['resolve']);
  });

  it('resolves only when the silent locations could not keep the incident open', () => {
    const state = aState();
    expect(
      feed(
        state,
        policy(),
        [
          ['eu', 'down', 0],
          ['asia', 'down', 0],
        ],
        everyLive,
      ),
    ).to.deep.equal(['open']);
    // asia falls silent while failing: eu down and us up leave it undetermined, so it stays open.
    expect(feed(state, policy(), [['us', 'up', 1]], liveOnly('eu', 'us'))).to.deep.equal(['locationReport']);
    expect(state.openIncidentId).to.equal(1);
    // eu recovers too: even a failing asia would be one of three.
    expect(feed(state, policy(), [['eu', 'up', 2]], liveOnly('eu', 'us'))).to.deep.equal(['resolve']);
  });
});

describe('alert rules: a single-location monitor whose location is silent', () => {
  const single = policy({ locations: ['eu'] });

  it('opens nothing', () => {
    const state = aState();
    expect(
      feed(
        state,
        single,
        [
          ['eu', 'down', 0],
          ['eu', 'down', 1],
        ],
        liveOnly(),
      ),
    ).to.deep.equal([]);
    expect(quorumOf(single, [], new Set()).decidable).to.equal(false);
  });

  it('keeps its open incident open (silence is not a recovery)', () => {
    const state = aState();
    expect(feed(state, single, [['eu', 'down', 0]], liveOnly('eu'))).to.deep.equal(['open']);
    expect(feed(state, single, [['eu', 'up', 1]], liveOnly())).to.deep.equal(['locationReport']);
    expect(state.openIncidentId).to.equal(1);
    expect(feed(state, single, [['eu', 'up', 2]], liveOnly('eu'))).to.deep.equal(['resolve']);
  });
});

describe('liveness transitions', () => {
  const decided = { silentLocations: [], undecidedSince: null };
  const at = new Date(t0.getTime() + MINUTE);

  it('becomes unknown once, with the silent locations, when the monitor can no longer be decided', () => {
    const change = livenessChange(decided, quorumOf(policy(), [], new Set(['eu'])), at);
    expect(change).to.deep.equal({ silentLocations: ['asia', 'us'], undecidedSince: at, transition: 'stateUnknown' });
    expect(livenessChange(change!, quorumOf(policy(), [], new Set(['eu'])), new Date(at.getTime() + MINUTE))).to.equal(null);
  });

  it('becomes known again when enough locations come back', () => {
    const unknown = { silentLocations: ['asia', 'us'], undecidedSince: t0 };
    expect(livenessChange(unknown, quorumOf(policy(), [], new Set(THREE)), at)).to.deep.equal({
      silentLocations: [],
      undecidedSince: null,
      transition: 'stateKnown',
    });
  });

  it('stores a silent set that moves without a transition, keeping when it became unknown', () => {
    expect(livenessChange(decided, quorumOf(policy(), [], new Set(['eu', 'us'])), at)).to.deep.equal({
      silentLocations: ['asia'],
      undecidedSince: null,
      transition: null,
    });
    const unknown = { silentLocations: ['asia', 'us'], undecidedSince: t0 };
    expect(livenessChange(unknown, quorumOf(policy(), [], new Set()), at)).to.deep.equal({
      silentLocations: ['asia', 'eu', 'us'],
      undecidedSince: t0,
      transition: null,
    });
  });

  it('changes nothing for a monitor whose locations are all live', () => {
    expect(livenessChange(decided, quorumOf(policy(), [], new Set(THREE)), at)).to.equal(null);
  });
});
