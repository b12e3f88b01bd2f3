/**
 * `npm run bench:ingest`: POST /api/im/events with 1 KB PagerDuty Events v2 triggers from 100
 * organizations (incident management on, an organization-wide token each), within their limits
 * (600 events per minute each: the bench waits for the next rate window rather than pass it).
 * Goals: durable events per second >= 3,000; p99 acknowledgement <= 50 ms at 1,000/s offered; the
 * decision lag p99 <= 1 s at that rate; the service's CPU per event <= 3x a bare Express route
 * taking the same body in the same run; the CPU of a 429 decided before the body is read <= 1.2x
 * that bare route; PostgreSQL's CPU per event <= 2x a bare batched insert of the same rows
 * (postgresCpuRatioToBareInsert).
 *
 * The service runs in its own process (bench/support/api-service-process, embedded PostgreSQL)
 * beside the bare route (POST /bare: express.json and a 202). Throughput and CPU: a closed loop of
 * BENCH_CONCURRENCY requests in flight, alternately on the bare route and the service, BENCH_ROUNDS
 * rounds of BENCH_DURATION seconds; durable events are the triggers PostgreSQL holds afterwards (the
 * sum of the incidents' occurrences), which must equal the 202s. Acknowledgement latency: an open
 * loop at BENCH_RATE events per second, each latency counted from its scheduled start. A 202 means
 * the event is durable in the intake log; its incident is decided right after: the decision lag is
 * the age of the oldest event not yet decided, sampled every 100 ms during the open loop and until
 * the log is empty (so each sample is the longest wait at that moment). A throughput round's CPU
 * is read once the log is empty, so PostgreSQL's CPU per event holds the decisions too. The 429: one
 * more organization whose window is used up, loaded as the bare route is. The bare batched insert:
 * after each throughput round, the timeline rows the round wrote (one per event), in the batches the
 * service wrote them in (their transactions), inserted again by one multi-row INSERT per batch into
 * a plain table of the same columns (support/bare-insert.ts), PostgreSQL's CPU per row beside the
 * service's PostgreSQL CPU per event of that round.
 *
 * BENCH_DURATION (s, default 5), BENCH_WARMUP (s, 2), BENCH_ROUNDS (3), BENCH_CONCURRENCY (32),
 * BENCH_RATE (open-loop events/s, 1000), BENCH_PROFILE=<dir> (a CPU profile of each service round).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { startBenchService, type BenchService } from './support/service';
import { sql } from '../src/infrastructure/persistence/sql';
import { toWire } from './support/wire-sql';
import { goal, loadAverage, printVerdict, type Goal } from './support/verdict';
import { createBareTable, lastEntryId, replayAsBareInserts } from './support/bare-insert';

const ORGANIZATIONS = 100;
const LIMIT_PER_MINUTE = 600;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const LATENCY_S = Math.max(DURATION_S, 8);
const PROFILE_DIR = process.env.BENCH_PROFILE;
const GOALS = { eventsPerSecond: 3000, p99Ms: 50, decisionLagP99Ms: 1000, cpuRatio: 3, rejectRatio: 1.2, postgresCpuRatioToBareInsert: 2 };
/** Distinct dedup keys per organization: the first event of each opens an incident, the others add occurrences. */
const KEYS_PER_ORGANIZATION = 50;

interface Cpu {
  serverMicros: number;
  postgresMicros: number | null;
}

/** A 1 KB PagerDuty Events v2 trigger (custom_details padded to the size). */
function eventBody(organization: number, n: number): string {
  const event = {
    routing_key: 'benchroutingkey0123456789abcdef0',
    event_action: 'trigger',
    dedup_key: `bench-${organization}-${n % KEYS_PER_ORGANIZATION}`,
    payload: {
      summary: `Disk almost full on db-${n % KEYS_PER_ORGANIZATION}.bench.example`,
      source: 'monitoringtool:bench:eu-central-1',
      severity: 'warning',
      timestamp: '2026-11-23T12:00:00.000+0000',
      component: 'postgres',
      group: 'prod',
      class: 'disk',
      custom_details: { free: '3%', mount: '/var/lib/postgresql', padding: '' },
    },
    client: 'Bench Monitoring',
    client_url: 'https://monitoring.bench.example',
  };
  const bare = JSON.stringify(event).length;
  event.payload.custom_details.padding = 'x'.repeat(Math.max(0, 1024 - bare));
  return JSON.stringify(event);
}

interface Target {
  path: string;
  headers(i: number): Record<string, string>;
  body(i: number): string;
}

interface LoadResult {
  requests: number;
  status: Map<number, number>;
  errors: number;
  seconds: number;
  latencies: number[];
}

function percentile(sorted: number[], q: number): number {
  return Number((sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0).toFixed(1));
}

/** CONCURRENCY loops, each sending its next request once the previous one is answered, for `seconds`. */
async function closedLoop(origin: string, target: Target, seconds: number): Promise<LoadResult> {
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
  const status = new Map<number, number>();
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const i = next++;
      const sent = performance.now();
      try {
        const response = await pool.request({ path: target.path, method: 'POST', headers: target.headers(i), body: target.body(i) });
        await response.body.arrayBuffer();
        status.set(response.statusCode, (status.get(response.statusCode) ?? 0) + 1);
        latencies.push(performance.now() - sent);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return { requests: latencies.length, status, errors, seconds: elapsed, latencies };
}

/** Requests started on a fixed schedule whatever the answers' pace; latency from the scheduled start. */
async function openLoop(origin: string, target: Target, rate: number, seconds: number): Promise<LoadResult> {
  const pool = new Pool(origin, { connections: 64, pipelining: 1 });
  const status = new Map<number, number>();
  const latencies: number[] = [];
  let errors = 0;
  const total = Math.floor(rate * seconds);
  const started = performance.now();
  const pending: Array<Promise<void>> = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(
      pool.request({ path: target.path, method: 'POST', headers: target.headers(i), body: target.body(i) }).then(
        async (response) => {
          await response.body.arrayBuffer();
          status.set(response.statusCode, (status.get(response.statusCode) ?? 0) + 1);
          latencies.push(performance.now() - due);
        },
        () => {
          errors++;
        },
      ),
    );
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return { requests: latencies.length, status, errors, seconds: elapsed, latencies };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round1 = (value: number) => Math.round(value * 10) / 10;
const statusOf = (result: LoadResult) => Object.fromEntries(result.status);

/**
 * The age (ms) of the oldest accepted event not yet decided (0 when the intake log is empty): the
 * oldest by the moment of acceptance among the first 400 entries in the log's order (two batches of
 * 200 committing at once are all that can interleave), read through the log's key. A scan of the
 * whole log (its dead entries included) cost PostgreSQL 10 ms a sample, beside the service it measured.
 */
async function oldestUndecidedMs(service: BenchService): Promise<number> {
  const { rows } = await service.request<{ rows: Array<{ ms: string | null }> }>({
    type: 'sql',
    statement: toWire(
      sql`SELECT (extract(epoch FROM clock_timestamp() - min(received_at)) * 1000)::text AS ms
            FROM (SELECT received_at FROM im_event_intake ORDER BY id LIMIT 400) oldest`,
    ),
  });
  return Number(rows[0]?.ms ?? 0);
}

/** Waits until every accepted event is decided (the intake log empty), at most `timeoutMs`. */
async function decided(service: BenchService, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await oldestUndecidedMs(service)) > 0) {
    if (Date.now() > deadline) throw new Error('accepted events not decided in time');
    await sleep(50);
  }
}

/** Samples the oldest undecided event's age every 100 ms while `load` runs and until the log is empty. */
async function withDecisionLag<T>(service: BenchService, load: () => Promise<T>): Promise<{ result: T; lagMs: number[] }> {
  const lagMs: number[] = [];
  let loading = true;
  const sampling = (async () => {
    for (;;) {
      const age = await oldestUndecidedMs(service);
      lagMs.push(age);
      if (!loading && age === 0) return;
      await sleep(100);
    }
  })();
  const result = await load();
  loading = false;
  await sampling;
  return { result, lagMs };
}

/** Runs `load` and answers it with the service process's CPU (and PostgreSQL's) per answered request. */
async function withCpu(service: BenchService, label: string, load: () => Promise<LoadResult>) {
  if (PROFILE_DIR) await service.request({ type: 'profile' });
  const before = await service.request<Cpu>({ type: 'cpu' });
  const result = await load();
  const after = await service.request<Cpu>({ type: 'cpu' });
  if (PROFILE_DIR) await service.request({ type: 'profile', file: `${PROFILE_DIR}/${label}.cpuprofile` });
  const n = Math.max(1, result.requests);
  return {
    result,
    serverMicros: (after.serverMicros - before.serverMicros) / n,
    postgresMicros:
      after.postgresMicros === null || before.postgresMicros === null ? null : (after.postgresMicros - before.postgresMicros) / n,
  };
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
  return response.json() as Promise<T>;
}

/** An organization (signed up through the API), with incident management on, and an organization-wide token. */
async function anOrganization(service: BenchService, n: number): Promise<{ token: string; organizationId: number }> {
  const stamp = `${Date.now()}-${n}`;
  const signUp = await json<{ token: string; user: { organizationId: number } }>(
    await fetch(`${service.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Bench',
        email: `ingest-${stamp}@bench.example`,
        password: 'bench password',
        organizationName: `Ingest ${n}`,
      }),
    }),
  );
  const minted = await json<{ token: string }>(
    await fetch(`${service.url}/api/organization/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${signUp.token}` },
      body: JSON.stringify({ name: 'ingest bench' }),
    }),
  );
  return { token: minted.token, organizationId: signUp.user.organizationId };
}

/**
 * Events sent per organization in the current fixed rate window (the service's windows are
 * aligned on the epoch minute); `reserve` waits for the next window when `count` more would pass the limit.
 */
class Budget {
  private window = -1;
  private used = 0;
  async reserve(count: number): Promise<void> {
    const current = Math.floor(Date.now() / 60_000);
    if (current !== this.window) {
      this.window = current;
      this.used = 0;
    }
    if (this.used + count > LIMIT_PER_MINUTE) {
      await sleep((current + 1) * 60_000 - Date.now() + 200);
      this.window = current + 1;
      this.used = 0;
    }
    this.used += count;
  }
}

async function main() {
  const loadBefore = loadAverage();
  const service = await startBenchService('api-service-process');
  const { bareUrl } = await service.request<{ bareUrl: string }>({ type: 'urls' });
  try {
    const tokens: string[] = [];
    for (let n = 0; n < ORGANIZATIONS; n += 10) {
      tokens.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(10, ORGANIZATIONS - n) }, (_, k) => anOrganization(service, n + k).then((o) => o.token)),
        )),
      );
    }
    // One more organization whose windows (this one and the next ten) are used up, as if it had sent 600 events in each.
    const over = await anOrganization(service, ORGANIZATIONS);
    const exhaustedToken = over.token;
    // Incident management on for every organization of the bench, before any of them sends an event.
    await service.request({ type: 'sql', statement: toWire(sql`UPDATE organizations SET incident_management_enabled = true`) });
    const thisWindow = Math.floor(Date.now() / 60_000);
    for (let w = 0; w <= 10; w++) {
      await service.request({
        type: 'sql',
        statement: toWire(
          sql`INSERT INTO rate_limit_counters (bucket, window_start, hits) VALUES (${`im-events:${over.organizationId}`}, ${new Date((thisWindow + w) * 60_000)}, ${LIMIT_PER_MINUTE})`,
        ),
      });
    }
    const bodies = tokens.map((_, org) => Array.from({ length: KEYS_PER_ORGANIZATION }, (_, n) => eventBody(org, n)));
    const bytes = Buffer.byteLength(bodies[0]![0]!);
    const headersFor = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
    const orgHeaders = tokens.map(headersFor);
    // Request i goes to organization i mod 100, so every organization gets the same share.
    let offset = 0;
    const ingest: Target = {
      path: '/api/im/events',
      headers: (i) => orgHeaders[(i + offset) % ORGANIZATIONS]!,
      body: (i) => bodies[(i + offset) % ORGANIZATIONS]![Math.floor((i + offset) / ORGANIZATIONS) % KEYS_PER_ORGANIZATION]!,
    };
    const bare: Target = { path: '/bare', headers: () => ({ 'content-type': 'application/json' }), body: (i) => ingest.body(i) };
    const budget = new Budget();
    let sent = 0;
    let accepted = 0;
    let throttled = 0;
    const ingestRun = async (run: () => Promise<LoadResult>, expected: number): Promise<LoadResult> => {
      await budget.reserve(Math.ceil(expected / ORGANIZATIONS) + 1);
      const result = await run();
      offset += result.requests + result.errors;
      sent += result.requests;
      accepted += result.status.get(202) ?? 0;
      throttled += result.status.get(429) ?? 0;
      return result;
    };
    // Enough headroom per round for about 4,000 events/s; a faster service would wait for windows sooner.
    const perRound = 4000 * DURATION_S;

    await closedLoop(bareUrl, bare, WARMUP_S);
    await ingestRun(() => closedLoop(service.url, ingest, WARMUP_S), 4000 * WARMUP_S);
    await createBareTable(service);
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      const b = await withCpu(service, `bare-${round}`, () => closedLoop(bareUrl, bare, DURATION_S));
      await budget.reserve(Math.ceil(perRound / ORGANIZATIONS));
      const afterEntry = await lastEntryId(service);
      // The CPU is read once the round's events are decided too (the log empty).
      const a = await withCpu(service, `ingest-${round}`, () =>
        ingestRun(() => closedLoop(service.url, ingest, DURATION_S), 0).then(async (r) => {
          await decided(service);
          return r;
        }),
      );
      const bareInsert = await replayAsBareInserts(service, afterEntry);
      rounds.push({
        bareRequestsPerSecond: Math.round(b.result.requests / b.result.seconds),
        bareCpuMicros: Math.round(b.serverMicros),
        eventsPerSecond: Math.round((a.result.status.get(202) ?? 0) / a.result.seconds),
        cpuMicrosPerEvent: Math.round(a.serverMicros),
        postgresCpuMicrosPerEvent: a.postgresMicros === null ? null : Math.round(a.postgresMicros),
        bareInsert,
        postgresCpuRatioToBareInsert:
          a.postgresMicros === null || !bareInsert.postgresCpuMicrosPerRow
            ? null
            : round1(a.postgresMicros / bareInsert.postgresCpuMicrosPerRow),
        ratio: round1(a.serverMicros / b.serverMicros),
        // All in: the service's and PostgreSQL's CPU per event over the bare route's (which touches no database).
        allInRatio: a.postgresMicros === null ? null : round1((a.serverMicros + a.postgresMicros) / b.serverMicros),
        closedLoopP99Ms: percentile(
          [...a.result.latencies].sort((x, y) => x - y),
          0.99,
        ),
        status: statusOf(a.result),
        errors: a.result.errors,
      });
    }

    const latencyRuns = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { result: run, lagMs } = await withDecisionLag(service, () =>
        ingestRun(() => openLoop(service.url, ingest, RATE, LATENCY_S), RATE * LATENCY_S),
      );
      const sorted = [...run.latencies].sort((x, y) => x - y);
      const lags = [...lagMs].sort((x, y) => x - y);
      latencyRuns.push({
        p50Ms: percentile(sorted, 0.5),
        p99Ms: percentile(sorted, 0.99),
        maxMs: percentile(sorted, 1),
        decisionLagP50Ms: percentile(lags, 0.5),
        decisionLagP99Ms: percentile(lags, 0.99),
        decisionLagSamples: lags.length,
        status: statusOf(run),
        errors: run.errors,
      });
    }

    // The 429: one organization over its window, refused before its body is read, beside the bare route.
    const exhausted: Target = { path: '/api/im/events', headers: () => headersFor(exhaustedToken), body: (i) => bare.body(i) };
    await closedLoop(service.url, exhausted, WARMUP_S);
    const rejects = [];
    for (let round = 0; round < ROUNDS; round++) {
      const b = await withCpu(service, `bare-reject-${round}`, () => closedLoop(bareUrl, bare, DURATION_S));
      const r = await withCpu(service, `reject-${round}`, () => closedLoop(service.url, exhausted, DURATION_S));
      rejects.push({
        bareCpuMicros: Math.round(b.serverMicros),
        rejectCpuMicros: Math.round(r.serverMicros),
        ratio: round1(r.serverMicros / b.serverMicros),
        postgresCpuMicrosPerReject: r.postgresMicros === null ? null : round1(r.postgresMicros),
        status: statusOf(r.result),
      });
    }

    await decided(service);
    const [stored] = await service
      .request<{ rows: Array<{ events: string }> }>({
        type: 'sql',
        statement: toWire(sql`SELECT COALESCE(SUM(occurrence_count), 0) AS events FROM im_incidents`),
      })
      .then((r) => r.rows);
    const durable = Number(stored?.events ?? 0);

    const eventsPerSecond = median(rounds.map((r) => r.eventsPerSecond));
    const ratio = median(rounds.map((r) => r.ratio));
    const p99Ms = median(latencyRuns.map((r) => r.p99Ms));
    const decisionLagP99Ms = median(latencyRuns.map((r) => r.decisionLagP99Ms));
    const rejectRatio = median(rejects.map((r) => r.ratio));
    const pgRatios = rounds.map((r) => r.postgresCpuRatioToBareInsert);
    const postgresCpuRatioToBareInsert = pgRatios.every((r) => r !== null) ? median(pgRatios as number[]) : null;
    const rejectsAll429 = rejects.every((r) => Object.keys(r.status).every((s) => s === '429'));
    const result = {
      date: new Date().toISOString(),
      organizations: ORGANIZATIONS,
      bodyBytes: bytes,
      concurrency: CONCURRENCY,
      durationSeconds: DURATION_S,
      rounds: ROUNDS,
      throughput: { eventsPerSecond, rounds },
      acknowledgement: { offeredPerSecond: RATE, secondsPerRound: LATENCY_S, p99Ms, runs: latencyRuns },
      decision: { offeredPerSecond: RATE, lagP99Ms: decisionLagP99Ms },
      cpu: {
        ratio,
        ratiosPerRound: rounds.map((r) => r.ratio),
        cpuMicrosPerEvent: median(rounds.map((r) => r.cpuMicrosPerEvent)),
        bareCpuMicros: median(rounds.map((r) => r.bareCpuMicros)),
        postgresCpuMicrosPerEvent: median(rounds.map((r) => r.postgresCpuMicrosPerEvent ?? 0)),
        allInRatio: median(rounds.map((r) => r.allInRatio ?? 0)),
        bareInsertPostgresCpuMicrosPerRow: median(rounds.map((r) => r.bareInsert.postgresCpuMicrosPerRow ?? 0)),
        postgresCpuRatioToBareInsert,
      },
      rejectBeforeBody: { ratio: rejectRatio, rounds: rejects },
      durability: { sent, accepted, throttledWithinLimits: throttled, storedEvents: durable, lost: accepted - durable },
    };
    const goals: Record<string, Goal> = {
      eventsPerSecond: goal(eventsPerSecond, '>=', GOALS.eventsPerSecond, 'durable events acknowledged a second (closed loop)'),
      acknowledgementP99Ms: goal(p99Ms, '<=', GOALS.p99Ms, `ms to the 202 at ${RATE} events/s offered (p99)`),
      decisionLagP99Ms: goal(
        decisionLagP99Ms,
        '<=',
        GOALS.decisionLagP99Ms,
        `ms from acceptance to decision at ${RATE} events/s (p99 of the oldest undecided)`,
      ),
      cpuRatio: goal(ratio, '<=', GOALS.cpuRatio, "the service's CPU per event over the bare route's"),
      rejectRatio: goal(rejectsAll429 ? rejectRatio : null, '<=', GOALS.rejectRatio, 'CPU per refused event over the bare route (all 429)'),
      postgresCpuRatioToBareInsert: goal(
        postgresCpuRatioToBareInsert,
        '<=',
        GOALS.postgresCpuRatioToBareInsert,
        "PostgreSQL's CPU per event over a bare batched insert of the same rows",
      ),
      lost: goal(accepted - durable, '==', 0, 'events acknowledged and not stored'),
      throttledWithinLimits: goal(throttled, '==', 0, 'events refused within the limits'),
    };
    printVerdict(result, goals, loadBefore);
  } finally {
    await service.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
