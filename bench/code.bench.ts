/**
 * `npm run bench:code`: monitoring as code (wsm) against the API calls it stands on, in one run.
 *
 * - plan: an organization of 10,000 website monitors (20 customers, tagged: the API bench's data
 *   set), exported once, then `wsm plan` of that file (it pages through every monitor list, reads
 *   the tags and customers, parses and validates the file, diffs) against paging through the same
 *   monitors with the list calls alone (GET /api/websites and each per-kind list, 200 a page).
 *   Alternate rounds (BENCH_ROUNDS, default 3), the medians compared. Goal: at most 1.5x.
 * - apply: `wsm apply` of a file of 1,000 new monitors (HTTP checks of a public address) against
 *   the same 1,000 POST /api/websites made directly one after another, each in an organization of
 *   its own with one customer. Goal: at most 1.5x.
 *
 * The service runs in its own process (embedded PostgreSQL, no jobs); wsm runs in this process,
 * in-process as the tests run it, over loopback HTTP. The machine is shared: figures move between runs.
 */
import { performance } from 'node:perf_hooks';
import { ApiClient, PER_PAGE, type Page } from '../src/interfaces/cli/api-client';
import { run, type CliIo } from '../src/interfaces/cli/main';
import { MONITOR_KINDS_LISTED } from '../src/interfaces/cli/resources';
import { websitesScenario } from './scenarios/websites.scenario';
import { anOrganizationWithToken, call } from './scenarios/scenario';
import { startBenchService, type BenchService } from './support/service';
import { goal, loadAverage, printVerdict } from './support/verdict';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** BENCH_APPLY=0 leaves out the apply half (its 1,000 creates take about a minute). */
const APPLY = process.env.BENCH_APPLY !== '0';
const CREATES = Number(process.env.BENCH_CREATES ?? 1000);
const progress = (message: string) => process.stderr.write(`[bench:code ${new Date().toISOString()}] ${message}\n`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** wsm in-process with an in-memory file system; throws unless it exits with `expected`. */
async function wsm(url: string, token: string, files: Map<string, string>, argv: string[], expected = 0): Promise<string> {
  let out = '';
  let err = '';
  const io: CliIo = {
    env: { WSM_URL: url, WSM_TOKEN: token },
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    readFile: async (name) => files.get(name)!,
    writeFile: async (name, text) => void files.set(name, text),
    client: (u, t) => new ApiClient(u, t),
  };
  const code = await run(argv, io);
  if (code !== expected) throw new Error(`wsm ${argv.join(' ')} exited ${code}: ${err}${out.slice(0, 2000)}`);
  return out;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function planBench(service: BenchService) {
  const target = await websitesScenario.prepare(service);
  const token = target.headers.authorization!.replace('Bearer ', '');
  const files = new Map<string, string>();
  await wsm(service.url, token, files, ['export', '--file', 'org.yaml']);
  const client = new ApiClient(service.url, token);
  let listed = 0;
  // The baseline: every kind's list paged through one page after another, as the bench has always
  // measured it (the client's own `all` now asks for several pages at once: printed beside, for reference).
  const listCalls = async () => {
    listed = 0;
    for (const kind of MONITOR_KINDS_LISTED)
      for (let page = 1; ; page += 1) {
        const path = `${kind === 'website' ? '/api/websites' : `/api/monitors/${kind}`}?page=${page}&perPage=${PER_PAGE}`;
        const answer = await client.request<Page>('GET', path);
        listed += answer.items.length;
        if (answer.items.length < PER_PAGE || page * PER_PAGE >= answer.total) break;
      }
  };
  const parallelLists = () => Promise.all(MONITOR_KINDS_LISTED.map((kind) => client.monitors(kind)));
  const plan = async () => {
    const out = await wsm(service.url, token, files, ['plan', '--file', 'org.yaml', '--detailed-exitcode']);
    if (!out.startsWith('No changes')) throw new Error(`the plan of an exported file changes something:\n${out.slice(0, 2000)}`);
  };
  await listCalls();
  await plan(); // warm-up of both
  const lists: number[] = [];
  const plans: number[] = [];
  const parallel: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    lists.push(await timed(listCalls));
    plans.push(await timed(plan));
    parallel.push(await timed(parallelLists));
    progress(
      `round ${round + 1}: list calls ${lists.at(-1)!.toFixed(0)} ms, plan ${plans.at(-1)!.toFixed(0)} ms, lists in parallel ${parallel.at(-1)!.toFixed(0)} ms`,
    );
  }
  return { monitors: listed, fileBytes: files.get('org.yaml')!.length, listMs: lists, planMs: plans, parallelListMs: parallel };
}

/** An organization with one customer whose package takes `CREATES` monitors at a 1-minute interval. */
async function anOrganizationForCreates(service: BenchService, label: string) {
  const org = await anOrganizationWithToken(service, label);
  const pkg = await call<{ id: number }>(
    service,
    'POST',
    '/api/package-configs',
    { key: 'bench', displayName: 'Bench', minCheckIntervalMinutes: 1, quotaTiers: [{ monitorLimit: 50_000, priceMonthly: 0 }] },
    org.token,
  );
  const { customer } = await call<{ customer: { publicId: string } }>(
    service,
    'POST',
    '/api/customers',
    { name: 'Customer', email: 'c@bench.example', packageId: pkg.id },
    org.token,
  );
  return { token: org.token, customer: customer.publicId };
}

const monitorBody = (n: number) => ({ name: `Site ${n}`, url: `https://93.184.216.34/health/${n}`, checkInterval: 5 });

async function applyBench(service: BenchService) {
  const direct = await anOrganizationForCreates(service, 'code-direct');
  const client = new ApiClient(service.url, direct.token);
  const directMs = await timed(async () => {
    for (let n = 0; n < CREATES; n++)
      await client.createMonitor('website', { customerId: direct.customer, key: `site-${n}`, ...monitorBody(n) });
  });
  progress(`${CREATES} direct creates: ${directMs.toFixed(0)} ms`);

  const coded = await anOrganizationForCreates(service, 'code-apply');
  const entries = Array.from({ length: CREATES }, (_, n) => {
    const body = monitorBody(n);
    return `  - key: site-${n}\n    kind: website\n    name: ${body.name}\n    url: ${body.url}\n    checkInterval: ${body.checkInterval}\n`;
  });
  const files = new Map([['new.yaml', `version: 1\ncustomer: ${coded.customer}\nmonitors:\n${entries.join('')}`]]);
  const applyMs = await timed(() => wsm(service.url, coded.token, files, ['apply', '--file', 'new.yaml']));
  progress(`wsm apply of ${CREATES} new monitors: ${applyMs.toFixed(0)} ms`);
  const again = await wsm(service.url, coded.token, files, ['plan', '--file', 'new.yaml']);
  if (!again.startsWith('No changes')) throw new Error('the applied file still plans changes');
  return { creates: CREATES, directMs, applyMs };
}

async function main() {
  const loadBefore = loadAverage();
  const service = await startBenchService('api-service-process');
  try {
    progress('seeding 10,000 websites');
    const plan = await planBench(service);
    const apply = APPLY ? await applyBench(service) : null;
    const planRatio = median(plan.planMs) / median(plan.listMs);
    const applyRatio = apply ? apply.applyMs / apply.directMs : null;
    printVerdict(
      {
        plan: {
          ...plan,
          medianListMs: Math.round(median(plan.listMs)),
          medianPlanMs: Math.round(median(plan.planMs)),
          ratio: Number(planRatio.toFixed(2)),
        },
        medianParallelListMs: Math.round(median(plan.parallelListMs)),
        apply: apply ? { ...apply, ratio: Number(applyRatio!.toFixed(2)) } : 'not run (BENCH_APPLY=0)',
        note: 'shared machine (2 cores, other work running): figures move between runs',
      },
      {
        planVsListCalls: goal(Number(planRatio.toFixed(2)), '<=', 1.5, 'x the list calls'),
        applyVsDirectCreates: goal(applyRatio === null ? null : Number(applyRatio.toFixed(2)), '<=', 1.5, 'x the direct creates'),
      },
      loadBefore,
    );
  } finally {
    await service.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
