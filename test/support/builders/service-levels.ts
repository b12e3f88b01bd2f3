import { CreateObjective } from '../../../src/application/service-levels/create-objective';
import { EvaluateBurnAlerts } from '../../../src/application/service-levels/evaluate-burn-alerts';
import { ObjectiveMeter } from '../../../src/application/service-levels/objective-meter';
import { UpdateObjective } from '../../../src/application/service-levels/update-objective';
import type { MonitorRef } from '../../../src/application/results/ports';
import type { TransactionRunner } from '../../../src/application/shared/transaction';
import { ManualClock } from '../manual-clock';
import { immediateTransactions, sequentialIds } from '../fakes/shared-fakes';
import {
  FakeExclusions,
  FakeObjectives,
  FakeObjectiveSubjects,
  FakeServiceLevelCoverage,
  FakeServiceLevelEvents,
} from '../fakes/service-levels-fakes';

/** A monitor as objectives see it: monitor 1 of customer 7 in organization 1, checked every minute from `eu` since 2026-01-01. */
export const anObjectiveMonitor = (overrides: Partial<MonitorRef> = {}): MonitorRef => ({
  monitorId: 1,
  publicId: '00000000-0000-4000-8000-000000000001',
  organizationId: 1,
  customerId: 7,
  name: 'm1',
  checkIntervalSeconds: 60,
  locations: ['eu'],
  createdAt: new Date('2026-01-01T00:00:00Z'),
  ...overrides,
});

export interface ServiceLevelsWorldOptions {
  readonly now?: Date | string;
  readonly tx?: TransactionRunner;
  /** The monitors objectives can cover (one: anObjectiveMonitor()). */
  readonly monitors?: MonitorRef[];
  /** What the coverage answers (nothing measured). */
  readonly coverage?: FakeServiceLevelCoverage;
}

/**
 * The service-levels context on its fakes, wired as the composition root wires it: objectives, their
 * subjects, the coverage and exclusions the meter reads, the events, and the use cases over them.
 */
export function aServiceLevelsWorld(options: ServiceLevelsWorldOptions = {}) {
  const clock = new ManualClock(options.now ?? '2026-06-01T00:00:00Z');
  const tx = options.tx ?? immediateTransactions;
  const objectives = new FakeObjectives();
  const subjects = new FakeObjectiveSubjects(options.monitors ?? [anObjectiveMonitor()]);
  const coverage = options.coverage ?? new FakeServiceLevelCoverage();
  const exclusions = new FakeExclusions();
  const events = new FakeServiceLevelEvents();
  const meter = new ObjectiveMeter(subjects, coverage, exclusions);
  return {
    clock,
    tx,
    objectives,
    subjects,
    coverage,
    exclusions,
    events,
    meter,
    create: new CreateObjective(objectives, subjects, tx, sequentialIds(), clock),
    update: new UpdateObjective(objectives, subjects, tx, clock),
    burnAlerts: new EvaluateBurnAlerts(objectives, meter, events, tx, clock),
  };
}
