import { MonitorWriter } from '../../../../src/application/monitoring/monitor-writer';
import {
  FakeAuthorizingUsers,
  FakeChangeRequests,
  FakeCustomerTerms,
  FakeDependencyGraph,
  FakeMonitors,
  FakeServedLocations,
  FakeTags,
  fakeCipher,
} from '../../../support/fakes/monitoring-fakes';
import { FakeTargetPolicy, recordedTransactions, sequentialIds } from '../../../support/fakes/shared-fakes';
import { FakeLocationCatalogue } from '../../../support/fakes/locations-fakes';
import { ManualClock } from '../../../support/manual-clock';

/** The monitoring use cases' ports as in-memory fakes, wired like the container wires the real ones. */
export function harness() {
  const monitors = new FakeMonitors();
  const customers = new FakeCustomerTerms();
  const policy = new FakeTargetPolicy();
  const tags = new FakeTags();
  const requests = new FakeChangeRequests();
  const users = new FakeAuthorizingUsers();
  const tx = recordedTransactions();
  const ids = sequentialIds();
  const clock = new ManualClock('2026-11-22T10:00:00Z');
  let n = 0;
  const secrets = { generate: (prefix: string) => `${prefix}${'x'.repeat(40)}${++n}`, hash: (t: string) => t };
  const served = new FakeServedLocations();
  const catalogue = ['eu-west', 'us-east', 'ap-southeast'];
  const known = new FakeLocationCatalogue(catalogue);
  const dependencies = new FakeDependencyGraph(monitors);
  const writer = new MonitorWriter(
    monitors,
    customers,
    policy,
    fakeCipher,
    secrets,
    tx,
    ids,
    clock,
    { catalogue, served, known },
    dependencies,
  );
  return { dependencies, monitors, customers, policy, tags, requests, users, tx, ids, clock, secrets, served, known, writer };
}
