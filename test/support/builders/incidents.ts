import { NoticeLocationSilence } from '../../../src/application/incidents/notice-location-silence';
import type { LivenessCandidate } from '../../../src/application/incidents/ports';
import { AlertActions } from '../../../src/application/incidents/alert-actions';
import { RecordCheckResult } from '../../../src/application/incidents/record-check-result';
import { SteadyMemo } from '../../../src/application/incidents/steady-memo';
import type { TransactionRunner } from '../../../src/application/shared/transaction';
import { ManualClock } from '../manual-clock';
import { immediateTransactions } from '../fakes/shared-fakes';
import {
  FakeAlertStates,
  FakeEvents,
  FakeIncidents,
  FakeLiveLocations,
  FakeMaintenanceWindows,
  FakeMonitorLivenessStore,
  FakeOrganizationEvents,
  aPolicy,
} from '../fakes/incidents-fakes';
import { FakeMonitorLookup, FakeResults } from '../fakes/results-fakes';

export interface CheckResultWorldOptions {
  /** The clock (one at 2026-11-22T12:00:00Z). */
  readonly clock?: ManualClock;
  /** The runner the use case opens its transactions with (one that runs at once). */
  readonly tx?: TransactionRunner;
  /** The monitors the results are about (the default monitor 7, alerting on `policy`). */
  readonly monitors?: FakeMonitorLookup;
  /** The alerting policy of the default monitor (aPolicy()). */
  readonly policy?: Parameters<typeof aPolicy>[0];
  /** Whether a maintenance window holds the alerts back (no). */
  readonly suppressed?: boolean;
  /** The steady-monitor memo kept between batches (a new one). */
  readonly memo?: SteadyMemo;
  /** The locations that are live (eu, us and asia). */
  readonly locations?: readonly string[];
}

/**
 * Recording check results on the incidents context's fakes, wired as the composition root wires
 * it: the monitor lookup, the result store, alert states, incidents and their events (incident ids
 * `uuid-1`, `uuid-2`, ...), maintenance, the live locations, and the use case over them.
 */
export function aCheckResultWorld(options: CheckResultWorldOptions = {}) {
  const clock = options.clock ?? new ManualClock('2026-11-22T12:00:00Z');
  const tx = options.tx ?? immediateTransactions;
  const monitors = options.monitors ?? new FakeMonitorLookup(undefined, aPolicy(options.policy));
  const results = new FakeResults();
  const states = new FakeAlertStates();
  const incidents = new FakeIncidents();
  const events = new FakeEvents();
  const maintenance = new FakeMaintenanceWindows(options.suppressed);
  let ids = 0;
  const actions = new AlertActions(incidents, events, { uuid: () => `uuid-${++ids}` });
  const live = new FakeLiveLocations(options.locations);
  const useCase = new RecordCheckResult(
    monitors,
    results,
    states,
    incidents,
    maintenance,
    actions,
    tx,
    clock,
    live,
    { detailSampleMinutes: 60 },
    options.memo ?? new SteadyMemo(),
  );
  return { clock, tx, monitors, results, states, incidents, events, maintenance, actions, live, useCase };
}

export type CheckResultWorld = ReturnType<typeof aCheckResultWorld>;

/** Monitor `monitorId` of customer 2 in organization 1, checked every minute from eu and us (both needed to go down), both reported, no incident. */
export const aLivenessCandidate = (monitorId: number, overrides: Partial<LivenessCandidate> = {}): LivenessCandidate => ({
  monitorId,
  publicId: `monitor-${monitorId}`,
  organizationId: 1,
  customerId: 2,
  checkIntervalSeconds: 60,
  paused: false,
  policy: aPolicy({ locations: ['eu', 'us'], locationThreshold: '1.0' }),
  reported: ['eu', 'us'],
  incidentOpen: false,
  stored: { silentLocations: [], undecidedSince: null },
  ...overrides,
});

/**
 * The location-silence job on the incidents context's fakes, wired as the composition root wires
 * it: live locations eu and us (silence one with `live.silence`), the liveness store (add
 * `aLivenessCandidate`s) and the organization events.
 */
export function aLocationSilenceWorld(options: { clock?: ManualClock; tx?: TransactionRunner } = {}) {
  const clock = options.clock ?? new ManualClock('2026-11-22T12:00:00Z');
  const tx = options.tx ?? immediateTransactions;
  const live = new FakeLiveLocations(['eu', 'us']);
  const store = new FakeMonitorLivenessStore();
  const events = new FakeOrganizationEvents();
  return { clock, tx, live, store, events, job: new NoticeLocationSilence(live, store, events, tx, clock) };
}
