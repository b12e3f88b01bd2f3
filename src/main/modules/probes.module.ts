import { CLOCK } from '../../application/shared/clock';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { PROBE_CREDENTIALS } from '../../application/locations/ports';
import { RESULT_STORE } from '../../application/results/ports';
import { CHECK_PLANNER, CHECK_SCHEDULE } from '../../application/scheduling/ports';
import { RecordCheckResult } from '../../application/incidents/record-check-result';
import { LATE_RESULTS, PROBE_ASSIGNMENTS, PROBE_REGISTRY, STEADY_PROBE_RESULTS } from '../../application/probes/ports';
import { LocationMonitors } from '../../application/probes/location-monitors';
import { CachedProbeCredentials } from '../../application/probes/cached-probe-credentials';
import { ProbeScheduleGateway } from '../../application/probes/probe-schedule-gateway';
import { ReceiveProbeResults } from '../../application/probes/receive-probe-results';
import { ReceiveProbeScreenshot } from '../../application/probes/receive-probe-screenshot';
import { SCREENSHOT_STORE } from '../../application/checks/ports';
import { SqlProbeRegistry } from '../../infrastructure/probes/sql-probe-registry';
import { SqlProbeAssignments } from '../../infrastructure/probes/sql-probe-assignments';
import { SqlLateResults } from '../../infrastructure/probes/sql-late-results';
import { SqlSteadyProbeResults } from '../../infrastructure/probes/sql-steady-probe-results';
import type { SqlResultStore } from '../../infrastructure/results/sql-result-store';
import type { AppConfig } from '../config';
import { CONFIG, POOL_SQL, LOGGER } from '../tokens';
import type { Database } from '../../infrastructure/persistence/database';
import { PgScheduleWakeups } from '../../infrastructure/scheduling/pg-schedule-wakeups';
import { ProbeWakeups } from '../../application/probes/probe-wakeups';
import { bindings } from './bindings';
import { probeApiIntake } from '../../interfaces/http/probes/probe-api';
import type { ContextModule } from './context-module';

/** Results older than this are history (stored without the alert rules): a probe cut off for longer replays them. */
const PROBE_TIMELY_MS = 120_000;
/** Late results are kept up to the raw window, less a margin for the upkeep that packs older days. */
const RAW_WINDOW_MARGIN_MS = 10 * 60_000;

/**
 * The probe protocol's server side: probes register, take their share of their location's
 * schedule and report results (its API is an intake: mounted before the host's parsers).
 */
export const probesModule = (database: Database) =>
  bindings(({ single }) => {
    single(PROBE_REGISTRY, (c) => new SqlProbeRegistry(c.get(POOL_SQL)));
    single(PROBE_ASSIGNMENTS, (c) => new SqlProbeAssignments(c.get(POOL_SQL)));
    single(LATE_RESULTS, (c) => new SqlLateResults(c.get(RESULT_STORE), c.get(POOL_SQL)));
    // The results context's store (its partition cache is the one retention clears), whose INSERT the statement embeds.
    single(STEADY_PROBE_RESULTS, (c) => new SqlSteadyProbeResults(c.get(POOL_SQL), c.get(RESULT_STORE) as SqlResultStore));
    single(LocationMonitors, (c) => new LocationMonitors(c.get(PROBE_ASSIGNMENTS), c.get(CLOCK)));
    single(CachedProbeCredentials, (c) => new CachedProbeCredentials(c.get(PROBE_CREDENTIALS), c.get(CLOCK)));
    single(
      ProbeScheduleGateway,
      (c) =>
        new ProbeScheduleGateway(
          c.get(CHECK_SCHEDULE),
          c.get(CHECK_PLANNER),
          c.get(PROBE_REGISTRY),
          c.get(PROBE_ASSIGNMENTS),
          c.get(CLOCK),
        ),
    );
    // Its own listener (a connection of its own, opened by the first wait) to the schedule's notices.
    single(ProbeWakeups, (c) => new ProbeWakeups(new PgScheduleWakeups(database.url, c.get(LOGGER)), c.get(PROBE_REGISTRY), c.get(CLOCK)));
    single(
      ReceiveProbeScreenshot,
      (c) => new ReceiveProbeScreenshot(c.get(PROBE_REGISTRY), c.get(PROBE_ASSIGNMENTS), c.get(SCREENSHOT_STORE), c.get(CLOCK)),
    );
    single(ReceiveProbeResults, (c) => {
      const config = c.get<AppConfig>(CONFIG);
      return new ReceiveProbeResults(
        c.get(PROBE_REGISTRY),
        c.get(PROBE_ASSIGNMENTS),
        c.get(CHECK_SCHEDULE),
        c.get(RecordCheckResult),
        c.get(LATE_RESULTS),
        c.get(TRANSACTION_RUNNER),
        c.get(CLOCK),
        {
          timelyMs: PROBE_TIMELY_MS,
          keepMs: config.results.rawHours * 3_600_000 - RAW_WINDOW_MARGIN_MS,
          detailSampleMinutes: config.results.detailSampleMinutes,
        },
        { monitors: c.get(LocationMonitors), store: c.get(STEADY_PROBE_RESULTS) },
      );
    });
  });

export const probesContext: ContextModule = {
  name: 'probes',
  bindings: ({ database }) => probesModule(database),
  intakes: [probeApiIntake],
  // Probes' wait calls are answered and the schedule's notices no longer listened to.
  closers: [{ name: 'probe wake-ups', close: (get) => get(ProbeWakeups).close() }],
};
