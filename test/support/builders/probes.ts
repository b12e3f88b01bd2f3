import { LocationMonitors } from '../../../src/application/probes/location-monitors';
import type { ProbeMonitor } from '../../../src/application/probes/ports';
import { ReceiveProbeResults } from '../../../src/application/probes/receive-probe-results';
import type { TransactionRunner } from '../../../src/application/shared/transaction';
import { ManualClock } from '../manual-clock';
import { immediateTransactions } from '../fakes/shared-fakes';
import { aPolicy } from '../fakes/incidents-fakes';
import { FakeLateResults, FakeProbeAssignments, FakeProbeRegistry, FakeSteadyProbeResults } from '../fakes/probes-fakes';
import { FakeMonitorLookup } from '../fakes/results-fakes';
import { FakeSchedule } from '../fakes/scheduling-fakes';
import { aCheckResultWorld } from './incidents';

export interface ProbesWorldOptions {
  /** The clock (one at 2026-11-22T12:00:00Z). */
  readonly clock?: ManualClock;
  /** The runner the use cases open their transactions with (one that runs at once). */
  readonly tx?: TransactionRunner;
  /** The monitors assigned to probe locations. */
  readonly assignments: Array<ProbeMonitor & { locations: string[] }>;
  /** The monitors the recorder knows (the default monitor, alerting on the first failure from `office`). */
  readonly lookup?: FakeMonitorLookup;
  /** Whether batches may take the steady way (yes, as the service wires it); without it every batch takes the long way. */
  readonly steady?: boolean;
}

/**
 * The probes context on its fakes, wired as the composition root wires it: the probe registry, the
 * check schedule, the late results, the assignments, the check-result recorder (live location
 * `office`), the steady store, and the result intake over them.
 */
export function aProbesWorld(options: ProbesWorldOptions) {
  const clock = options.clock ?? new ManualClock('2026-11-22T12:00:00Z');
  const tx = options.tx ?? immediateTransactions;
  const registry = new FakeProbeRegistry();
  const schedule = new FakeSchedule();
  const late = new FakeLateResults();
  const assignments = new FakeProbeAssignments(options.assignments);
  const recorder = aCheckResultWorld({
    clock,
    monitors: options.lookup ?? new FakeMonitorLookup(undefined, aPolicy({ locations: ['office'] })),
    locations: ['office'],
  });
  const steady = new FakeSteadyProbeResults(registry, schedule, assignments, recorder.results);
  const settings = { timelyMs: 120_000, keepMs: 6 * 3_600_000, detailSampleMinutes: 60 };
  const steadyWay = options.steady === false ? undefined : { monitors: new LocationMonitors(assignments, clock), store: steady };
  return {
    clock,
    tx,
    registry,
    schedule,
    late,
    assignments,
    record: recorder.useCase,
    results: recorder.results,
    incidents: recorder.incidents,
    steady,
    receive: new ReceiveProbeResults(registry, assignments, schedule, recorder.useCase, late, tx, clock, settings, steadyWay),
  };
}

export type ProbesWorld = ReturnType<typeof aProbesWorld>;
