import { AlertActions } from '../../../src/application/incidents/alert-actions';
import { RecordCheckResult } from '../../../src/application/incidents/record-check-result';
import type { Clock } from '../../../src/application/shared/clock';
import { FakeAlertStates, FakeEvents, FakeIncidents, FakeLiveLocations, FakeMaintenanceWindows, aPolicy } from './incidents-fakes';
import { FakeMonitorLookup, FakeResults } from './results-fakes';
import { immediateTransactions } from './shared-fakes';

/**
 * The engine's recorder on in-memory fakes, for the use cases that hand it their results (probe
 * intake, the engine's outcomes): monitors checked from `locations`, no maintenance, every location
 * live, details sampled hourly. Answers the recorder with the fakes a test reads back.
 */
export function aRecorderOnFakes(clock: Clock, locations: string[]) {
  const results = new FakeResults();
  const incidents = new FakeIncidents();
  const record = new RecordCheckResult(
    new FakeMonitorLookup(undefined, aPolicy({ locations })),
    results,
    new FakeAlertStates(),
    incidents,
    new FakeMaintenanceWindows(false),
    new AlertActions(incidents, new FakeEvents(), { uuid: () => 'uuid' }),
    immediateTransactions,
    clock,
    new FakeLiveLocations(locations),
    { detailSampleMinutes: 60 },
  );
  return { record, results, incidents };
}
