import { MonitorWriter } from '../../../../src/application/monitoring/monitor-writer';
import type { TransactionRunner } from '../../../../src/application/shared/transaction';
import {
  FakeChangeRequests, FakeCustomers, FakeMonitors, FakeServedLocations, FakeTags, FakeTargetPolicy, FakeUsers, fakeCipher,
} from './fakes';

/** The monitoring use cases' ports as in-memory fakes, wired like the container wires the real ones. */
export function harness() {
  const monitors = new FakeMonitors();
  const customers = new FakeCustomers();
  const policy = new FakeTargetPolicy();
  const tags = new FakeTags();
  const requests = new FakeChangeRequests();
  const users = new FakeUsers();
  const tx: TransactionRunner = { run: (work) => work() };
  let n = 0;
  const ids = { uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` };
  const clock = { now: () => new Date('2026-11-22T10:00:00Z') };
  const secrets = { generate: (prefix: string) => `${prefix}${'x'.repeat(40)}${++n}`, hash: (t: string) => t };
  const served = new FakeServedLocations();
  const writer = new MonitorWriter(
    monitors, customers, policy, fakeCipher, secrets, tx, ids, clock, { catalogue: ['eu-west', 'us-east', 'ap-southeast'], served },
  );
  return { monitors, customers, policy, tags, requests, users, tx, ids, clock, secrets, served, writer };
}
