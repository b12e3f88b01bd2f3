import { expect } from 'chai';
import { AlertState, type ObserveContext } from '../../../../src/domain/incidents/alert-state';
import type { AlertPolicy } from '../../../../src/domain/results/alert-policy';
import { dependenciesFirst, dependencyRootOf, type DependencyStatus } from '../../../../src/domain/incidents/dependency-hold';
import type { CheckStatus } from '../../../../src/domain/results/check-status';

const t0 = new Date('2026-11-22T10:00:00Z');
const at = (minute: number) => new Date(t0.getTime() + minute * 60_000);
const policy = (over: Partial<AlertPolicy> = {}): AlertPolicy => ({
  consecutiveChecks: 2,
  retryIntervalSeconds: 20,
  locationThreshold: '0.50',
  locationThresholdCount: 1,
  reminderIntervalMinutes: 0,
  sslExpiryReminderDays: null,
  dnsblReminderDays: null,
  locations: ['eu', 'us'],
  ...over,
});
const context = (dependencyRoot: number | null = null): ObserveContext => ({ suppressed: false, remindersMuted: false, dependencyRoot });
const aState = (monitorId = 7) => new AlertState({ monitorId, organizationId: 1, customerId: 2, checkIntervalSeconds: 60, now: t0 });
const see = (state: AlertState, location: string, status: CheckStatus, minute: number, root: number | null = null, p = policy()) =>
  state
    .observe({ location, status, reasonCode: status === 'down' ? 'timeout' : null, checkedAt: at(minute) }, p, context(root))
    .map((d) => d.kind);

describe('dependencies in the alert rules: a failure put down to its root', () => {
  it('holds back an incident whose failures are confirmed while a dependency is down, and names the root', () => {
    const state = aState();
    expect(see(state, 'eu', 'down', 0, 1)).to.deep.equal([]);
    expect(state.dependencyRootId).to.equal(null, 'not confirmed yet: nothing to hold');
    expect(see(state, 'eu', 'down', 1, 1)).to.deep.equal([], 'confirmed, but the root is down: no incident');
    expect(state.dependencyRootId).to.equal(1);
    expect(state.dependencyHeldSince).to.deep.equal(at(1));
    expect(state.isFailing).to.equal(true);
    expect(see(state, 'eu', 'down', 2, 1)).to.deep.equal([]);
    expect(state.dependencyHeldSince).to.deep.equal(at(1), 'held since the first time');
  });

  it('opens at its next failing result once the root is up again (no new confirmation), the outage starting at its first failure', () => {
    const state = aState();
    see(state, 'eu', 'down', 0, 1);
    see(state, 'us', 'down', 0.5, 1);
    see(state, 'eu', 'down', 1, 1);
    const decisions = state.observe({ location: 'us', status: 'down', reasonCode: 'timeout', checkedAt: at(2) }, policy(), context(null));
    expect(decisions).to.deep.equal([{ kind: 'open', startedAt: at(0), failingLocations: ['eu', 'us'] }]);
    expect(state.dependencyRootId).to.equal(null);
  });

  it('once its root is up, a location coming back up opens nothing while another still counts as failing', () => {
    const state = aState();
    see(state, 'eu', 'down', 0, 1);
    see(state, 'us', 'down', 0.5, 1);
    see(state, 'eu', 'down', 1, 1);
    see(state, 'us', 'down', 1.5, 1);
    expect(see(state, 'eu', 'up', 2, null)).to.deep.equal([], 'us has not been checked again yet');
    expect(state.dependencyRootId).to.equal(1, 'still shown as held until decided');
    expect(see(state, 'us', 'up', 2.5, null)).to.deep.equal([]);
    expect(state.dependencyRootId).to.equal(null);
    expect(state.isFailing).to.equal(false);
  });

  it('lets go when it recovers while held: nothing opens, nothing is left held', () => {
    const state = aState();
    see(state, 'eu', 'down', 0, 1);
    see(state, 'eu', 'down', 1, 1);
    expect(see(state, 'eu', 'up', 2, 1)).to.deep.equal([]);
    expect(state.dependencyRootId).to.equal(null);
    expect(state.isFailing).to.equal(false);
  });

  it('an incident already open stays its own when a dependency fails later', () => {
    const own = aState();
    see(own, 'eu', 'down', 0);
    expect(see(own, 'eu', 'down', 1)).to.deep.equal(['open']);
    own.incidentOpened(5, at(1));
    expect(see(own, 'eu', 'down', 2, 1)).to.deep.equal([]);
    expect(own.dependencyRootId).to.equal(null);
  });

  it('is never held by itself', () => {
    const state = aState(7);
    see(state, 'eu', 'down', 0, 7);
    expect(see(state, 'eu', 'down', 1, 7)).to.deep.equal(['open']);
  });

  it('keeps the hold through its stored form', () => {
    const state = AlertState.restore({
      monitorId: 7,
      organizationId: 1,
      customerId: 2,
      checkIntervalSeconds: 60,
      now: t0,
      openIncidentId: null,
      locations: {},
      lastReminderAt: null,
      sslExpiry: null,
      dnsbl: null,
      dependencyRootId: 3,
      dependencyHeldSince: at(4),
    });
    expect([state.dependencyRootId, state.dependencyHeldSince, state.isFailing]).to.deep.equal([3, at(4), true]);
  });
});

describe('dependencyRootOf', () => {
  const status = (monitorId: number, isFailing: boolean, dependencyRootId: number | null = null): DependencyStatus => ({
    monitorId,
    isFailing,
    dependencyRootId,
  });
  it('is the first failing dependency, or the root that holds it, else null', () => {
    const states = new Map([
      [2, status(2, false)],
      [3, status(3, true)],
      [4, status(4, true, 9)],
    ]);
    expect(dependencyRootOf([2, 3, 4], (id) => states.get(id))).to.equal(3);
    expect(dependencyRootOf([4, 3], (id) => states.get(id))).to.equal(9);
    expect(dependencyRootOf([2, 5], (id) => states.get(id))).to.equal(null, 'up or never judged: no root');
  });
});

describe('dependenciesFirst', () => {
  it('orders a batch so that each dependency comes before its dependents, stable otherwise', () => {
    const deps = new Map<number, number[]>([
      [10, [20]],
      [20, [30]],
      [11, [30]],
    ]);
    const ordered = dependenciesFirst(
      [10, 11, 20, 30, 40],
      (id) => id,
      (id) => deps.get(id) ?? [],
    );
    expect(ordered).to.deep.equal([30, 40, 11, 20, 10]);
  });
  it('survives a loop stored by mistake', () => {
    const deps = new Map<number, number[]>([
      [1, [2]],
      [2, [1]],
    ]);
    expect(
      dependenciesFirst(
        [1, 2],
        (id) => id,
        (id) => deps.get(id) ?? [],
      ),
    ).to.have.members([1, 2]);
  });
});
