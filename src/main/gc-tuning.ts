import fs from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import { DEFAULT_DATA_DIR } from './data-dir';

/**
 * Garbage-collector settings for a process that runs checks (why: docs/check-engine.md; what they
 * buy: bench/README.md, `npm run bench:engine` and `npm run bench:small`), by the scale it is run
 * at (`SERVICE_SCALE`: `small`, the default, or `large`).
 *
 * At the large end (tens of thousands of monitors and more, hundreds of checks a second) every check
 * allocates a socket, its streams and closures, and some of them reach the old generation; the
 * process also keeps a large live heap (the held schedule, the ORM's metadata, the API) that every
 * full collection marks again. So:
 * - `--max-semi-space-size=64` (MB, at start) lets most of a check's garbage die young instead of
 *   being promoted.
 * - The old generation may grow to twice what survived the last full collection (set at run time
 *   below), so full collections of that large live heap come several times less often, for more
 *   resident memory.
 * - V8's memory reducer is off (`--no-memory-reducer`, at start: set at run time V8 ignores it).
 *   It takes a worker between waves of checks for idle, runs full collections to shrink the heap
 *   and shrinks the young generation, after which young collections come far more often.
 * - The collector keeps its helper threads (parallel scavenging, concurrent marking). On one thread
 *   (`--single-threaded-gc`) a check costs about 6 % less CPU on 2 cores, but every young collection
 *   of the 64-MB young generation stops the process for 20-30 ms instead of about half that, and
 *   those pauses were most of the event intake's acknowledgement tail (p99 39-71 ms against 22-38 ms
 *   at 1,000 events a second, bench/README.md): a large process serves its API as well as its checks.
 *
 * At the small end (a few thousand monitors, a few checks a second) those settings cost memory and
 * buy nothing: starting the service (migrations, the ORM's discovery, the API's schemas) allocates
 * enough to grow the young generation to its most (2 x 64 MB), which nothing gives back with the
 * memory reducer off, so an idle service held about 100 MB of young generation. A small process
 * keeps V8's own sizing (a young generation of at most 2 x SMALL_SEMI_SPACE_MB, the old
 * generation's growth and the memory reducer as V8 chooses) and the collector on the main thread
 * (`--single-threaded-gc`: a few checks a second leave it short pauses, and its helper threads
 * would cost a small machine more CPU than its own work).
 *
 * V8 fixes the young generation's limit when the process starts, so the scale follows the work held
 * at each start: `auto` (the default) is `large` when the database holds LARGE_AT_MONITORS monitors
 * or more as the process starts (`scripts/node-command.cjs` asks it before node starts; the embedded
 * PostgreSQL, not running yet then, is known by the count its service left in DATA_DIR when it last
 * started and stopped), `small` otherwise. The embedded PostgreSQL's own settings follow the scale.
 */
const SEMI_SPACE_MB = 64;
const SMALL_SEMI_SPACE_MB = 4;
const OLD_GENERATION_GROWTH_PERCENT = 100;

/** The monitors from which `auto` starts a process at the large scale (SERVICE_SCALE_LARGE_AT overrides it). */
export const LARGE_AT_MONITORS = 10_000;

/** The scale a check process is tuned for: `large` for tens of thousands of monitors and more. */
export type ServiceScale = 'small' | 'large';

/** What `SERVICE_SCALE` may say: a scale, or `auto` (the default): chosen by the monitors held at start. */
export type ServiceScaleSetting = ServiceScale | 'auto';

/** `SERVICE_SCALE` as set (auto unless it names a scale). */
export const serviceScaleSetting = (env: NodeJS.ProcessEnv = process.env): ServiceScaleSetting =>
  env.SERVICE_SCALE === 'large' || env.SERVICE_SCALE === 'small' ? env.SERVICE_SCALE : 'auto';

/** The scale `auto` chooses for a database holding `monitors` (undefined: not known, so small). */
export const scaleForMonitors = (monitors: number | undefined, largeAt = LARGE_AT_MONITORS): ServiceScale =>
  monitors !== undefined && monitors >= largeAt ? 'large' : 'small';

/** The flags node was started with, on its command line or in NODE_OPTIONS, spelt with dashes. */
const givenFlags = (execArgv: readonly string[], nodeOptions: string): Set<string> =>
  new Set([...execArgv, ...nodeOptions.split(/\s+/)].map((flag) => flag.replaceAll('_', '-')));

/**
 * The scale this process runs at: the one set, or for `auto` the one its node flags were chosen for
 * (the launcher gives the large scale's `--no-memory-reducer` only to a large process).
 */
export const serviceScale = (
  setting: ServiceScaleSetting = serviceScaleSetting(),
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): ServiceScale => {
  if (setting !== 'auto') return setting;
  return givenFlags(execArgv, nodeOptions).has('--no-memory-reducer') ? 'large' : 'small';
};

/**
 * The monitors the database holds, for `auto` before node starts (`scripts/node-command.cjs`): read
 * with one short-lived connection when DATABASE_URL is set; undefined when it is not answered
 * within a few seconds or holds no schema yet (the process then starts small and says so in its
 * log). Without DATABASE_URL the embedded PostgreSQL is not running yet: the count its service
 * last left in DATA_DIR (monitorsLastHeld), undefined before its first start.
 */
export async function monitorsAtStart(env: NodeJS.ProcessEnv = process.env): Promise<number | undefined> {
  if (!env.DATABASE_URL) return monitorsLastHeld(env.DATA_DIR || DEFAULT_DATA_DIR);
  const { Client } = await import('pg');
  const client = new Client({ connectionString: env.DATABASE_URL, connectionTimeoutMillis: 3000, query_timeout: 3000 });
  try {
    await client.connect();
    // The launcher's own client, before the service and its sql kit exist; a statement without parameters.
    // eslint-disable-next-line no-restricted-syntax
    const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM monitors');
    return rows[0]?.n;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Where a service on the embedded PostgreSQL leaves, in its DATA_DIR, how many monitors it held. */
export const MONITORS_HELD_FILE = 'monitors-held.json';

/** The monitors a service on the embedded PostgreSQL of `dataDir` last counted (at its last start or stop); undefined if none did. */
export async function monitorsLastHeld(dataDir: string): Promise<number | undefined> {
  try {
    const { monitors } = JSON.parse(await fs.readFile(path.join(path.resolve(dataDir), MONITORS_HELD_FILE), 'utf8')) as {
      monitors?: unknown;
    };
    return typeof monitors === 'number' && Number.isSafeInteger(monitors) && monitors >= 0 ? monitors : undefined;
  } catch {
    return undefined;
  }
}

/** Leaves the monitors held in `dataDir` for the next start's `auto` (written aside, then renamed: never half a file). */
export async function rememberMonitorsHeld(dataDir: string, monitors: number): Promise<void> {
  const file = path.join(dataDir, MONITORS_HELD_FILE);
  const aside = `${file}.${process.pid}`;
  await fs.writeFile(aside, JSON.stringify({ monitors }), { mode: 0o600 });
  await fs.rename(aside, file);
}

/** The scale `npm start` starts a check process at: SERVICE_SCALE, `auto` resolved against the database. */
export async function launchScale(env: NodeJS.ProcessEnv = process.env): Promise<ServiceScale> {
  const setting = serviceScaleSetting(env);
  if (setting !== 'auto') return setting;
  const largeAt = env.SERVICE_SCALE_LARGE_AT ? Number(env.SERVICE_SCALE_LARGE_AT) : LARGE_AT_MONITORS;
  return scaleForMonitors(await monitorsAtStart(env), largeAt);
}

/**
 * How `npm start` starts a check process (`scripts/node-command.cjs` prints it for `exec env ...`):
 * the environment of its scale (`NAME=value` words), then `node` and the flags of its scale.
 */
export async function launchCommand(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const scale = await launchScale(env);
  const assignments = Object.entries(environmentForChecks(scale, env)).map(([name, value]) => `${name}=${value}`);
  return [...assignments, 'node', ...nodeFlagsForChecks(scale)];
}

/** Applies what can be applied at run time (the host calls it once, before starting the engine). */
export function tuneGarbageCollection(scale: ServiceScale = serviceScale()): void {
  if (scale === 'large') v8.setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
}

/**
 * The flags to start a check process with (`npm start`, a forked benchmark service, a supervisor's
 * command line): its scale's collector settings, and the runtime's async context without async
 * hooks where `nodeVersion` has it but not by default (asyncContextFlags).
 */
export const nodeFlagsForChecks = (scale: ServiceScale, nodeVersion: string = process.versions.node): string[] => [
  ...(scale === 'large'
    ? [`--max-semi-space-size=${SEMI_SPACE_MB}`, '--no-memory-reducer']
    : [`--max-semi-space-size=${SMALL_SEMI_SPACE_MB}`, '--single-threaded-gc']),
  ...asyncContextFlags(nodeVersion),
];

/**
 * AsyncLocalStorage (MikroORM's transaction context, the host's request scope and audit
 * attribution) is built on async hooks up to Node 23: once a store is entered, every promise, socket
 * and timer the process creates calls a hook that copies the stores onto it, so every check pays for
 * it. Measured with an HTTP check at 333 a second in a process of its own (bench/README.md): about
 * 17 % of the check's CPU on Node 20, 4 % on Node 22. Node 24 keeps the stores in a context frame
 * instead, with no hook (the same check with a store entered costs what it costs without); Node
 * 22.7 to 23 have that implementation behind `--experimental-async-context-frame`, which this turns
 * on. Node 20 has none: nothing to add.
 */
export function asyncContextFlags(nodeVersion: string): string[] {
  const [major = 0, minor = 0] = nodeVersion.replace(/^v/, '').split('.').map(Number);
  return (major === 22 && minor >= 7) || major === 23 ? ['--experimental-async-context-frame'] : [];
}

/**
 * glibc's allocator at the small scale (GLIBC_TUNABLES, read when the process starts). With its
 * defaults a process keeps memory that was freed: V8's parser and compiler allocate zones of
 * several hundred KB while the service loads its modules, and glibc raises its mmap threshold
 * after the first such block is freed, so later ones come from the heap, whose freed middle is
 * never given back; each thread that allocates may also get an arena of its own. Blocks from
 * 128 KB always mapped (so freed back to the system), the heap's free top trimmed from 128 KB,
 * and two arenas: 7-9 MB less resident for a small service, idle or checking, at the same CPU
 * (bench/README.md). The large scale keeps glibc's defaults (a busy process would map and unmap
 * its large buffers over and over).
 */
export const SMALL_MALLOC_TUNABLES = 'glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072';

/** The environment a check process starts with at `scale`, beyond `env` (GLIBC_TUNABLES already set there is kept). */
export const environmentForChecks = (scale: ServiceScale, env: NodeJS.ProcessEnv = process.env): Record<string, string> =>
  scale === 'small' && env.GLIBC_TUNABLES === undefined ? { GLIBC_TUNABLES: SMALL_MALLOC_TUNABLES } : {};

/**
 * Which variables of environmentForChecks this process was started without (the host warns about
 * them with the missing flags: glibc reads its settings only as a process starts).
 */
export const missingEnvironment = (scale: ServiceScale = serviceScale(), env: NodeJS.ProcessEnv = process.env): string[] =>
  Object.keys(environmentForChecks(scale, env));

/**
 * Which of those flags this process was started without (on node's command line or, where node
 * allows them there, in NODE_OPTIONS): the host warns about them, since they cannot be applied once
 * it runs.
 */
export function missingNodeFlags(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
  scale: ServiceScale = serviceScale(),
): string[] {
  const given = givenFlags(execArgv, nodeOptions);
  return nodeFlagsForChecks(scale).filter((flag) => !given.has(flag));
}
