import { expect } from 'chai';
import { AlertState, type ObserveContext } from '../../../../src/domain/incidents/alert-state';
import { requiredLocations, type AlertPolicy } from '../../../../src/domain/results/alert-policy';
import type { AlertDecision } from '../../../../src/domain/incidents/alert-decision';
import type { CheckStatus } from '../../../../src/domain/results/check-status';

const t0 = new Date('2026-11-22T10:00:00Z');
const MINUTE = 60_000;
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
const normal: ObserveContext = { suppressed: false, remindersMuted: false };

/** Feeds results and carries out `open` as the use case does (incident id 1). */
function feed(
  state: AlertState,
  p: AlertPolicy,
  results: [string, CheckStatus, number][],
  context = normal,
  reasonCode: string | null = null,
) {
  const decisions: AlertDecision['kind'][] = [];
  for (const [location, status, minute] of results) {
    const checkedAt = new Date(t0.getTime() + minute * MINUTE);
    for (const decision of state.observe({ location, status, reasonCode: status === 'up' ? null : reasonCode, checkedAt }, p, context)) {
      decisions.push(decision.kind);
      if (decision.kind === 'open') state.incidentOpened(1, checkedAt);
    }
  }
  return decisions;
}
const aState = () => new AlertState({ monitorId: 7, organizationId: 1, customerId: 2, checkIntervalSeconds: 60, now: t0 });

describe('alert rules: locations agreeing', () => {
  it('needs the threshold share rounded up, at least the count, at most all locations', () => {
    const p = (threshold: string, count: number) => policy({ locationThreshold: threshold, locationThresholdCount: count });
    expect([1, 2, 3, 4, 5].map((n) => requiredLocations(p('0.50', 1), n))).to.deep.equal([1, 1, 2, 2, 3]);
    expect(requiredLocations(p('0', 3), 5)).to.equal(3);
    expect(requiredLocations(p('1.0', 1), 4)).to.equal(4);
    expect(requiredLocations(p('0.5', 9), 4)).to.equal(4);
    expect(requiredLocations(p('0.25', 0), 4)).to.equal(1);
    expect(requiredLocations(p('0.50', 1), 0)).to.equal(1);
  });
});

describe('alert rules: opening and resolving', () => {
  it('opens after alertConsecutiveChecks failures in a row, not before', () => {
    const state = aState();
    expect(
      feed(state, policy({ consecutiveChecks: 3 }), [
        ['eu', 'down', 0],
        ['eu', 'down', 1],
      ]),
    ).to.deep.equal([]);
    expect(feed(state, policy({ consecutiveChecks: 3 }), [['eu', 'down', 2]])).to.deep.equal(['open']);
  });

  it('an up result in between restarts the count', () => {
    const state = aState();
    expect(
      feed(state, policy(), [
        ['eu', 'down', 0],
        ['eu', 'up', 1],
        ['eu', 'down', 2],
        ['eu', 'degraded', 3],
        ['eu', 'down', 4],
      ]),
    ).to.deep.equal([]);
  });

  it('dates the incident from the first failure of the streak', () => {
    const state = aState();
    const decisions = state.observe({ location: 'eu', status: 'down', reasonCode: 'timeout', checkedAt: t0 }, policy(), normal);
    expect(decisions).to.deep.equal([]);
    const [open] = state.observe(
      { location: 'eu', status: 'down', reasonCode: 'timeout', checkedAt: new Date(t0.getTime() + MINUTE) },
      policy(),
      normal,
    );
    expect(open).to.deep.equal({ kind: 'open', startedAt: t0, failingLocations: ['eu'] });
  });

  it('waits for enough locations to agree', () => {
    const state = aState();
    const p = policy({ locations: ['eu', 'us', 'asia'], consecutiveChecks: 1 });
    expect(
      feed(state, p, [
        ['eu', 'down', 0],
        ['eu', 'down', 1],
      ]),
    ).to.deep.equal([]);
    expect(feed(state, p, [['us', 'down', 1]])).to.deep.equal(['open']);
  });

  it('opens once: further failures only report location changes', () => {
    const state = aState();
    const p = policy({ locations: ['eu', 'us'], consecutiveChecks: 1, locationThreshold: '0.5' });
    expect(
      feed(state, p, [
        ['eu', 'down', 0],
        ['us', 'down', 0],
        ['eu', 'down', 1],
        ['us', 'down', 1],
      ]),
    ).to.deep.equal(['open', 'locationReport']);
  });

  it('resolves when fewer locations than required still fail, and may open again later', () => {
    const state = aState();
    const p = policy({ locations: ['eu', 'us'], consecutiveChecks: 1, locationThreshold: '1.0' });
    expect(
      feed(state, p, [
        ['eu', 'down', 0],
        ['us', 'down', 0],
      ]),
    ).to.deep.equal(['open']);
    expect(feed(state, p, [['eu', 'up', 1]])).to.deep.equal(['resolve']);
    expect(state.openIncidentId).to.equal(null);
    expect(feed(state, p, [['eu', 'down', 2]])).to.deep.equal(['open']);
  });

  it('ignores a result older than the last one of its location', () => {
    const state = aState();
    const p = policy({ consecutiveChecks: 1 });
    feed(state, p, [['eu', 'down', 5]]);
    expect(feed(state, p, [['eu', 'up', 4]])).to.deep.equal([]);
    expect(state.openIncidentId).to.equal(1);
  });

  it("does not let locations outside the monitor's list count", () => {
    const state = aState();
    expect(
      feed(state, policy({ consecutiveChecks: 1 }), [
        ['mars', 'down', 0],
        ['mars', 'down', 1],
      ]),
    ).to.deep.equal([]);
  });

  it('counts every reporting location when the monitor lists none', () => {
    const state = aState();
    expect(feed(state, policy({ locations: [], consecutiveChecks: 1 }), [['heartbeat', 'down', 0]])).to.deep.equal(['open']);
  });

  it('starts an outage opened after a window at the first failure outside it, not at failures inside it', () => {
    const state = aState();
    const p = policy({ consecutiveChecks: 2, locations: ['eu', 'us'], locationThreshold: '1.0' });
    const inWindow = { suppressed: true, remindersMuted: false };
    for (const [location, minute] of [
      ['eu', 0],
      ['us', 0],
      ['eu', 1],
      ['us', 1],
    ] as const) {
      expect(
        state.observe({ location, status: 'down', reasonCode: null, checkedAt: new Date(t0.getTime() + minute * MINUTE) }, p, inWindow),
      ).to.deep.equal([]);
    }
    // The failures inside count toward the streak: the first failing check after the window opens it, starting then.
    const [opened] = state.observe(
      { location: 'eu', status: 'down', reasonCode: null, checkedAt: new Date(t0.getTime() + 5 * MINUTE) },
      p,
      normal,
    );
    expect(opened).to.deep.include({ kind: 'open', startedAt: new Date(t0.getTime() + 5 * MINUTE) });
  });

  it('opens nothing during maintenance, yet lets a recovery resolve', () => {
    const state = aState();
    const p = policy({ consecutiveChecks: 1 });
    expect(
      feed(
        state,
        p,
        [
          ['eu', 'down', 0],
          ['eu', 'down', 1],
        ],
        { suppressed: true, remindersMuted: false },
      ),
    ).to.deep.equal([]);
    expect(feed(state, p, [['eu', 'down', 2]])).to.deep.equal(['open']);
    expect(feed(state, p, [['eu', 'up', 3]], { suppressed: true, remindersMuted: false })).to.deep.equal(['resolve']);
  });
});

describe('alert rules: reminders', () => {
  it('reminds every alertReminderInterval while open', () => {
    const state = aState();
    const p = policy({ consecutiveChecks: 1, reminderIntervalMinutes: 5 });
    const minutes = Array.from({ length: 12 }, (_, m) => ['eu', 'down', m] as [string, CheckStatus, number]);
    expect(feed(state, p, minutes)).to.deep.equal(['open', 'remind', 'remind']);
  });

  it('sends none with interval 0, while acknowledged, or during maintenance', () => {
    const down = (from: number) => Array.from({ length: 10 }, (_, m) => ['eu', 'down', from + m] as [string, CheckStatus, number]);
    expect(feed(aState(), policy({ consecutiveChecks: 1, reminderIntervalMinutes: 0 }), down(0))).to.deep.equal(['open']);
    const acknowledged = aState();
    const p = policy({ consecutiveChecks: 1, reminderIntervalMinutes: 2 });
    feed(acknowledged, p, down(0).slice(0, 1));
    expect(feed(acknowledged, p, down(1), { suppressed: false, remindersMuted: true })).to.deep.equal([]);
    expect(feed(acknowledged, p, down(20), { suppressed: true, remindersMuted: false })).to.deep.equal([]);
  });

  it('does not remind the moment a window ends over a monitor that was down before it, only an interval later', () => {
    const state = aState();
    const p = policy({ consecutiveChecks: 1, reminderIntervalMinutes: 10 });
    const down = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, m) => ['eu', 'down', from + m] as [string, CheckStatus, number]);
    expect(feed(state, p, down(0, 5))).to.deep.equal(['open']);
    expect(feed(state, p, down(5, 30), { suppressed: true, remindersMuted: false })).to.deep.equal([]);
    expect(feed(state, p, down(30, 39))).to.deep.equal([]);
    expect(feed(state, p, down(39, 40))).to.deep.equal(['remind']);
  });

  it('opens a new incident after a window when the monitor recovered and failed again inside it', () => {
    const state = aState();
    const p = policy({ consecutiveChecks: 1 });
    const inWindow = { suppressed: true, remindersMuted: false };
    expect(feed(state, p, [['eu', 'down', 0]])).to.deep.equal(['open']);
    expect(
      feed(
        state,
        p,
        [
          ['eu', 'up', 1],
          ['eu', 'down', 2],
          ['eu', 'down', 3],
        ],
        inWindow,
      ),
    ).to.deep.equal(['resolve']);
    expect(feed(state, p, [['eu', 'down', 4]])).to.deep.equal(['open']);
  });

  it('repeats certificate-expiry reminders every sslExpiryReminderInterval days until an up result', () => {
    const state = aState();
    const p = policy({ sslExpiryReminderDays: 2, consecutiveChecks: 99 });
    const day = 24 * 60;
    expect(
      feed(
        state,
        p,
        [
          ['eu', 'degraded', 0],
          ['eu', 'degraded', day],
        ],
        normal,
        'sslExpiringSoon',
      ),
    ).to.deep.equal(['sslExpiryReminder']);
    expect(feed(state, p, [['eu', 'degraded', 2 * day]], normal, 'sslExpiringSoon')).to.deep.equal(['sslExpiryReminder']);
    expect(feed(state, p, [['eu', 'down', 2 * day + 1]], normal, 'timeout')).to.deep.equal([]);
    expect(state.sslExpiry).not.to.equal(null);
    feed(state, p, [['eu', 'up', 2 * day + 2]]);
    expect(state.sslExpiry).to.equal(null);
  });

  it('does not repeat a certificate reminder the moment a window ends, yet announces a condition that began inside it', () => {
    const p = policy({ sslExpiryReminderDays: 1, consecutiveChecks: 99 });
    const day = 24 * 60;
    const inWindow = { suppressed: true, remindersMuted: false };
    const known = aState();
    expect(feed(known, p, [['eu', 'degraded', 0]], normal, 'sslExpiringSoon')).to.deep.equal(['sslExpiryReminder']);
    expect(
      feed(
        known,
        p,
        [
          ['eu', 'degraded', day],
          ['eu', 'degraded', 2 * day],
        ],
        inWindow,
        'sslExpiringSoon',
      ),
    ).to.deep.equal([]);
    expect(feed(known, p, [['eu', 'degraded', 2 * day + 1]], normal, 'sslExpiringSoon')).to.deep.equal([]);
    expect(feed(known, p, [['eu', 'degraded', 3 * day]], normal, 'sslExpiringSoon')).to.deep.equal(['sslExpiryReminder']);
    const fresh = aState();
    expect(feed(fresh, p, [['eu', 'degraded', 0]], inWindow, 'sslExpiringSoon')).to.deep.equal([]);
    expect(feed(fresh, p, [['eu', 'degraded', 1]], normal, 'sslExpiringSoon')).to.deep.equal(['sslExpiryReminder']);
  });

  it('announces a certificate expiring, then its expiry at once (certificate.expired), then reminds of the expiry', () => {
    const state = aState();
    const p = policy({ sslExpiryReminderDays: 2, consecutiveChecks: 99 });
    const day = 24 * 60;
    expect(feed(state, p, [['eu', 'degraded', 0]], normal, 'sslExpiringSoon')).to.deep.equal(['sslExpiryReminder']);
    expect(
      feed(
        state,
        p,
        [
          ['eu', 'down', 1],
          ['eu', 'down', 2],
          ['eu', 'down', day],
        ],
        normal,
        'sslExpired',
      ),
    ).to.deep.equal(['sslExpired']);
    expect(feed(state, p, [['eu', 'down', 2 * day + 1]], normal, 'sslExpired')).to.deep.equal(['sslExpired']);
  });

  it('announces an expired certificate seen first as expired once, and again only after a renewal that expires anew', () => {
    const state = aState();
    const p = policy({ sslExpiryReminderDays: null, consecutiveChecks: 99 });
    const first = state.observe({ location: 'eu', status: 'down', reasonCode: 'sslExpired', checkedAt: t0 }, p, normal);
    expect(first).to.deep.equal([{ kind: 'sslExpired', since: t0, first: true }]);
    expect(
      feed(
        state,
        p,
        [
          ['eu', 'down', 1],
          ['eu', 'down', 60],
        ],
        normal,
        'sslExpired',
      ),
    ).to.deep.equal([]);
    expect(feed(state, p, [['eu', 'degraded', 61]], normal, 'sslExpiringSoon')).to.deep.equal([]);
    expect(feed(state, p, [['eu', 'down', 62]], normal, 'sslExpired')).to.deep.equal(['sslExpired']);
  });

  it('holds back a certificate expiry seen inside a maintenance window until the window ends', () => {
    const state = aState();
    const p = policy({ sslExpiryReminderDays: null, consecutiveChecks: 99 });
    const inWindow = { suppressed: true, remindersMuted: false };
    expect(feed(state, p, [['eu', 'degraded', 0]], normal, 'sslExpiringSoon')).to.deep.equal(['sslExpiryReminder']);
    expect(
      feed(
        state,
        p,
        [
          ['eu', 'down', 1],
          ['eu', 'down', 2],
        ],
        inWindow,
        'sslExpired',
      ),
    ).to.deep.equal([]);
    expect(feed(state, p, [['eu', 'down', 3]], normal, 'sslExpired')).to.deep.equal(['sslExpired']);
  });

  it('notifies a blocklisting once when dnsblReminderInterval is unset', () => {
    const state = aState();
    const p = policy({ dnsblReminderDays: null, consecutiveChecks: 99 });
    expect(
      feed(
        state,
        p,
        [
          ['eu', 'down', 0],
          ['eu', 'down', 10 * 24 * 60],
        ],
        normal,
        'dnsblListed',
      ),
    ).to.deep.equal(['dnsblReminder']);
  });
});

describe('alert state: guarded from outside', () => {
  it('opens a new incident for an outage that goes on after its incident was closed elsewhere (by hand)', () => {
    const state = aState();
    expect(
      feed(state, policy(), [
        ['eu', 'down', 0],
        ['eu', 'down', 1],
      ]),
    ).to.deep.equal(['open']);
    expect(feed(state, policy(), [['eu', 'down', 2]])).to.not.include('open');
    state.incidentClosedElsewhere();
    expect(state.openIncidentId).to.equal(null);
    expect(feed(state, policy(), [['eu', 'down', 3]])).to.deep.equal(['open']);
  });

  it('restores a stored state whole: incident, locations, reminder and conditions', () => {
    const state = AlertState.restore({
      monitorId: 7,
      organizationId: 1,
      customerId: 2,
      checkIntervalSeconds: 60,
      now: t0,
      openIncidentId: 4,
      locations: {
        eu: {
          consecutiveFailures: 2,
          failingSince: t0.toISOString(),
          lastStatus: 'down',
          lastReasonCode: 'timeout',
          lastCheckedAt: t0.toISOString(),
        },
      },
      lastReminderAt: t0,
      sslExpiry: null,
      dnsbl: { since: t0.toISOString(), lastNotifiedAt: null },
    });
    expect(state.openIncidentId).to.equal(4);
    expect(state.location('eu')).to.deep.include({ status: 'down', reasonCode: 'timeout' });
    expect(state.lastReminderAt).to.deep.equal(t0);
    expect(state.isSteady('eu', 'up'), 'an incident is open').to.equal(false);
    expect(feed(state, policy(), [['eu', 'up', 1]])).to.deep.equal(['resolve']);
    expect(state.openIncidentId).to.equal(null);
  });
});
