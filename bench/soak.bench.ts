/**
 * `npm run bench:soak`: mixed API traffic while the check engine runs 40,000 monitors on loopback,
 * for SOAK_MINUTES (default 10). Goals: error rate 0, check start lateness p99 <= 1 s, resident
 * memory flat after warm-up (after SOAK_WARMUP_MINUTES, the slope of each minute's lowest RSS sample,
 * in MB/min, under 1; the slope of all samples beside it).
 *
 * The service with its check worker and embedded PostgreSQL runs as bench:engine runs it
 * (bench/support/engine-process), warmed up until every monitor's first result is recorded. One
 * organization (signed up through the API) has a customer with 1,050 website monitors checked on
 * loopback (a public status page of 50 of them, an incident told on it); events go to a second one
 * (incident management on).
 * The traffic is open-loop: SOAK_RATE requests/s (default 100) on a fixed schedule over 50
 * keep-alive connections, each latency counted from the request's scheduled start, in the
 * proportions of MIX below: list pages, reads of one website and of its check history, writes
 * (renames; creations, each deleted by the next), status page views, event ingest (within the
 * organization's 600 events a minute). Every answer must be the route's 2xx.
 * Progress on stderr every SOAK_PROGRESS_SECONDS (30); the figures as JSON on stdout.
 * SOAK_MONITORS (default 40000), BENCH_ENGINE_WARMUP (seconds, trial runs).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { aPageOf50 } from './scenarios/status-page.scenario';
import { anOrganizationWithToken, call } from './scenarios/scenario';
import { engineWindow, startEngineUnderLoad, type EngineStats } from './support/engine-under-load';
import { sql, type Sql } from '../src/infrastructure/persistence/sql';
import { toWire } from './support/wire-sql';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const MONITORS = Number(process.env.SOAK_MONITORS ?? 40_000);
const RATE = Number(process.env.SOAK_RATE ?? 100);
const WARMUP_MINUTES = Number(process.env.SOAK_WARMUP_MINUTES ?? Math.min(2, MINUTES / 2));
const PROGRESS_SECONDS = Number(process.env.SOAK_PROGRESS_SECONDS ?? 30);
const CONNECTIONS = 50;
const WEBSITES = 1000;
const RSS_EVERY_MS = 10_000;
const GOALS = { errorRate: 0, latenessP99Ms: 1000, rssSlopeMbPerMinute: 1 };

type Route = 'list' | 'read' | 'history' | 'rename' | 'create' | 'statusPage' | 'ingest';

/** Shares of the traffic, per 100 requests. Ingest at 5 % of 100/s stays under the organization's 600 a minute. */
const MIX: Record<Route, number> = { list: 20, read: 25, history: 5, rename: 10, create: 5, statusPage: 30, ingest: 5 };

const progress = (message: string) => process.stderr.write(`[bench:soak ${new Date().toISOString()}] ${message}\n`);

function percentile(sorted: number[], q: number): number {
  return Number((sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0).toFixed(1));
}

/** Least-squares slope of (minute, MB) samples. */
function slope(samples: Array<{ minute: number; mb: number }>): number {
  const n = samples.length;
  if (n < 2) return 0;
  const mx = samples.reduce((s, p) => s + p.minute, 0) / n;
  const my = samples.reduce((s, p) => s + p.mb, 0) / n;
  const num = samples.reduce((s, p) => s + (p.minute - mx) * (p.mb - my), 0);
  const den = samples.reduce((s, p) => s + (p.minute - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

/** The route of request i: MIX's shares spread evenly over every 100 requests. */
function routeSchedule(): Route[] {
  const slots: Array<{ route: Route; at: number }> = [];
  for (const [route, share] of Object.entries(MIX) as Array<[Route, number]>) {
    for (let k = 0; k < share; k++) slots.push({ route, at: (k + 0.5) / share });
  }
  return slots.sort((a, b) => a.at - b.at).map((s) => s.route);
}

async function main() {
  const engine = await startEngineUnderLoad(MONITORS, [1, 2], progress);
  const { service } = engine;
  try {
    const seed = (statement: Sql) => service.request<{ rows: Array<Record<string, any>> }>({ type: 'sql', statement: toWire(statement) });
    const page = await aPageOf50(service, { location: 'bench', url: engine.targets.http });
    const { organization: org, customerId } = page;
    await seed(
      sql`INSERT INTO monitors (public_id, organization_id, customer_id, kind, monitoring_type, name, status, management_type,
         check_interval, timeout_seconds, locations, url, config, created_at, updated_at)
       SELECT gen_random_uuid(), ${org.organizationId}, ${customerId}, 'website', 'http', 'Website ' || g, 'active', 'managed', 5, 30, ARRAY['bench'], ${engine.targets.http},
         '{"checkSslEnabled": false}'::jsonb, now(), now()
       FROM generate_series(1, ${WEBSITES}) g`,
    );
    await service.request({ type: 'renderDocuments' });
    // Events go to an organization of their own: its setting changed before its token is first used (callers are cached).
    const ingestOrg = await anOrganizationWithToken(service, 'soak-ingest');
    await seed(sql`UPDATE organizations SET incident_management_enabled = true WHERE id = ${ingestOrg.organizationId}`);
    const websites = (await seed(sql`SELECT public_id FROM monitors WHERE organization_id = ${org.organizationId}`)).rows.map((r) =>
      String(r.public_id),
    );
    // A first event, so the ingest route is warm and the organization known to it.
    await call(service, 'POST', '/api/im/events', eventBody(0), ingestOrg.token);

    const auth = { authorization: `Bearer ${org.token}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const ingestJson = { authorization: `Bearer ${ingestOrg.token}`, 'content-type': 'application/json' };
    let created: string | undefined;
    let renames = 0;
    const requestOf = (
      route: Route,
      i: number,
    ): { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string; headers: Record<string, string>; body?: string } => {
      const website = websites[(i * 7919) % websites.length]!;
      switch (route) {
        case 'list':
          return { method: 'GET', path: `/api/websites?page=${1 + (i % 21)}&perPage=50`, headers: auth };
        case 'read':
          return { method: 'GET', path: `/api/websites/${website}`, headers: auth };
        case 'history':
          return { method: 'GET', path: `/api/websites/${website}/check-history`, headers: auth };
        case 'rename':
          return {
            method: 'PATCH',
            path: `/api/websites/${website}`,
            headers: json,
            body: JSON.stringify({ name: `Website renamed ${++renames}` }),
          };
        case 'create':
          return created
            ? { method: 'DELETE', path: `/api/websites/${created}`, headers: auth }
            : {
                method: 'POST',
                path: '/api/websites',
                headers: json,
                body: JSON.stringify({
                  customerId,
                  name: `Created ${i}`,
                  url: engine.targets.http,
                  checkInterval: 5,
                  locations: ['bench'],
                  checkSslEnabled: false,
                }),
              };
        case 'statusPage':
          return { method: 'GET', path: page.path, headers: {} };
        case 'ingest':
          return { method: 'POST', path: '/api/im/events', headers: ingestJson, body: JSON.stringify(eventBody(i)) };
      }
    };

    const pool = new Pool(service.url, { connections: CONNECTIONS, pipelining: 1 });
    const schedule = routeSchedule();
    const routeKey = (route: Route, method: string) => (route === 'create' ? `${method === 'DELETE' ? 'delete' : 'create'}` : route);
    const latencies = new Map<string, number[]>();
    const failures = new Map<string, Map<string, number>>();
    const fail = (key: string, what: string) => {
      const counts = failures.get(key) ?? new Map<string, number>();
      counts.set(what, (counts.get(what) ?? 0) + 1);
      failures.set(key, counts);
    };
    let sent = 0;
    let answered = 0;
    let errors = 0;
    let inFlightCreate = false;
    const rss: Array<{ minute: number; mb: number }> = [];
    const intervals: Array<{
      minute: number;
      requests: number;
      errors: number;
      p99Ms: number;
      checks: ReturnType<typeof engineWindow>;
      rssMb: number;
      eventLoopDelayP99Ms: number;
    }> = [];

    const heapAtStart = await service.request<{ bytes: number; rss: number }>({ type: 'heap' });
    const statsAtStart = await engine.stats();
    await service.request({ type: 'loop-delay' });
    const started = performance.now();
    const end = started + MINUTES * 60_000;
    const interval = 1000 / RATE;
    const pending = new Set<Promise<void>>();
    let lastProgress = started;
    let lastRss = started - RSS_EVERY_MS;
    let lastStats: EngineStats = statsAtStart;
    let windowLatencies: number[] = [];
    let windowErrors = 0;
    let windowRequests = 0;
    progress(
      `soak: ${MINUTES} min at ${RATE} requests/s (${Object.entries(MIX)
        .map(([r, s]) => `${r} ${s} %`)
        .join(', ')})`,
    );
    for (let i = 0; ; i++) {
      const due = started + i * interval;
      if (due >= end) break;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const now = performance.now();
      if (now - lastRss >= RSS_EVERY_MS) {
        lastRss = now;
        const minute = (now - started) / 60_000;
        void engine.stats().then((s) => rss.push({ minute, mb: s.rss / 1e6 }));
      }
      if (now - lastProgress >= PROGRESS_SECONDS * 1000) {
        lastProgress = now;
        const s = await engine.stats();
        const checks = engineWindow(lastStats, s);
        const loop = await service.request<{ p99: number; max: number }>({ type: 'loop-delay' });
        lastStats = s;
        windowLatencies.sort((a, b) => a - b);
        const entry = {
          minute: Number(((now - started) / 60_000).toFixed(1)),
          requests: windowRequests,
          errors: windowErrors,
          p99Ms: percentile(windowLatencies, 0.99),
          checks,
          rssMb: Math.round(s.rss / 1e6),
          eventLoopDelayP99Ms: loop.p99,
        };
        intervals.push(entry);
        progress(
          `${entry.minute} min: ${windowRequests} answers (${windowErrors} errors), p99 ${entry.p99Ms} ms; checks ${checks.checksStarted}, start lateness p99 ${checks.latenessMs.p99} ms; event loop delay p99 ${loop.p99} ms; RSS ${entry.rssMb} MB`,
        );
        windowLatencies = [];
        windowErrors = 0;
        windowRequests = 0;
      }
      let route = schedule[i % schedule.length]!;
      // One creation or deletion at a time (each deletes the previous creation); a rename meanwhile.
      if (route === 'create' && inFlightCreate) route = 'rename';
      const request = requestOf(route, i);
      const key = routeKey(route, request.method);
      if (route === 'create') inFlightCreate = true;
      sent++;
      const promise = pool
        .request({ path: request.path, method: request.method, headers: request.headers, body: request.body })
        .then(
          async (response) => {
            const text = await response.body.text();
            const latency = performance.now() - due;
            answered++;
            windowRequests++;
            if (response.statusCode < 200 || response.statusCode >= 300) {
              errors++;
              windowErrors++;
              fail(key, `${response.statusCode} ${text.slice(0, 200)}`);
            }
            if (key === 'create' && response.statusCode === 201) created = String((JSON.parse(text) as { id: string }).id);
            if (key === 'delete' && response.statusCode < 300) created = undefined;
            const list = latencies.get(key) ?? [];
            list.push(latency);
            latencies.set(key, list);
            windowLatencies.push(latency);
          },
          (error: Error) => {
            errors++;
            windowErrors++;
            fail(key, error.message);
          },
        )
        .finally(() => {
          if (route === 'create') inFlightCreate = false;
          pending.delete(promise);
        });
      pending.add(promise);
    }
    await Promise.all(pending);
    const seconds = (performance.now() - started) / 1000;
    await pool.close();
    const statsAtEnd = await engine.stats();
    const heapAtEnd = await service.request<{ bytes: number; rss: number }>({ type: 'heap' });
    const checks = engineWindow(statsAtStart, statsAtEnd);
    const afterWarmup = rss.filter((s) => s.minute >= WARMUP_MINUTES);
    const rssSlope = slope(afterWarmup);
    // RSS is a sawtooth (the collector's cycles): the lowest sample of each minute is what stays.
    const troughs = new Map<number, number>();
    for (const s of afterWarmup) troughs.set(Math.floor(s.minute), Math.min(troughs.get(Math.floor(s.minute)) ?? Infinity, s.mb));
    const troughSlope = slope([...troughs.entries()].map(([minute, mb]) => ({ minute, mb })));
    const routes = Object.fromEntries(
      [...latencies.entries()].sort().map(([key, list]) => {
        list.sort((a, b) => a - b);
        return [key, { requests: list.length, p50Ms: percentile(list, 0.5), p99Ms: percentile(list, 0.99), maxMs: percentile(list, 1) }];
      }),
    );
    const worstIntervalLateness = Math.max(0, ...intervals.map((w) => w.checks.latenessMs.p99));
    const result = {
      date: new Date().toISOString(),
      minutes: MINUTES,
      monitors: MONITORS,
      websitesOfTheOrganization: websites.length,
      requestsPerSecondOffered: RATE,
      requestsPerSecondAnswered: Number((answered / seconds).toFixed(1)),
      mixPercent: MIX,
      requests: sent,
      errors,
      errorRate: sent === 0 ? 0 : Number((errors / sent).toFixed(6)),
      failures: Object.fromEntries([...failures.entries()].map(([key, counts]) => [key, Object.fromEntries(counts)])),
      routes,
      checks: {
        started: checks.checksStarted,
        perSecond: Number((checks.checksStarted / seconds).toFixed(1)),
        dropped: checks.dropped,
        startLatenessMs: checks.latenessMs,
        worstIntervalP99Ms: worstIntervalLateness,
      },
      memory: {
        rssMb: {
          first: Math.round(rss[0]?.mb ?? 0),
          atWarmupEnd: Math.round(afterWarmup[0]?.mb ?? 0),
          last: Math.round(rss.at(-1)?.mb ?? 0),
          max: Math.round(Math.max(0, ...rss.map((s) => s.mb))),
        },
        rssSlopeAfterWarmupMbPerMinute: Number(rssSlope.toFixed(2)),
        warmupMinutes: WARMUP_MINUTES,
        // The slope of each minute's lowest RSS after warm-up: the goal's figure (all samples' slope beside it).
        rssTroughSlopeMbPerMinute: Number(troughSlope.toFixed(2)),
        liveHeapMb: { start: Math.round(heapAtStart.bytes / 1e6), end: Math.round(heapAtEnd.bytes / 1e6) },
        // minute:MB, every 10 s
        rssSamples: rss.map((s) => `${s.minute.toFixed(2)}:${Math.round(s.mb)}`).join(' '),
      },
      intervals,
      goals: `error rate ${GOALS.errorRate}; check start lateness p99 <= ${GOALS.latenessP99Ms} ms; RSS flat after warm-up (slope under ${GOALS.rssSlopeMbPerMinute} MB/min)`,
      ok: errors === 0 && checks.latenessMs.p99 <= GOALS.latenessP99Ms && Math.abs(troughSlope) < GOALS.rssSlopeMbPerMinute,
    };
    console.log(JSON.stringify(result, null, 2));
    if (!result.ok) process.exitCode = 1;
  } finally {
    await engine.stop();
  }
}

/** A PagerDuty Events v2 trigger (50 dedup keys: the first of each opens an incident, the others add occurrences). */
function eventBody(i: number) {
  return {
    routing_key: 'benchroutingkey0123456789abcdef0',
    event_action: 'trigger',
    dedup_key: `soak-${i % 50}`,
    payload: { summary: `Queue depth high on worker-${i % 50}`, source: 'soak', severity: 'warning', custom_details: { depth: i } },
  };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
