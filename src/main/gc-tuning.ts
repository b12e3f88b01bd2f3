import v8 from 'node:v8';

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
 * - `--single-threaded-gc` (at start): on a machine with few cores the collector's helper threads
 *   compete with the checks and PostgreSQL and cost more CPU in all than the same work on one
 *   thread. The price is longer main-thread pauses; with cores to spare, drop the flag.
 *
 * At the small end (a few thousand monitors, a few checks a second) those settings cost memory and
 * buy nothing: starting the service (migrations, the ORM's discovery, the API's schemas) allocates
 * enough to grow the young generation to its most (2 x 64 MB), which nothing gives back with the
 * memory reducer off, so an idle service held about 100 MB of young generation. A small process
 * keeps V8's own sizing (a young generation of at most 2 x SMALL_SEMI_SPACE_MB, the old
 * generation's growth and the memory reducer as V8 chooses) and the single-threaded collector.
 */
const SEMI_SPACE_MB = 64;
const SMALL_SEMI_SPACE_MB = 4;
const OLD_GENERATION_GROWTH_PERCENT = 100;

/** The scale a check process is tuned for: `large` for tens of thousands of monitors and more. */
export type ServiceScale = 'small' | 'large';

/** `SERVICE_SCALE` (small unless it says large). */
export const serviceScale = (env: NodeJS.ProcessEnv = process.env): ServiceScale => (env.SERVICE_SCALE === 'large' ? 'large' : 'small');

/** Applies what can be applied at run time (the host calls it once, before starting the engine). */
export function tuneGarbageCollection(scale: ServiceScale = serviceScale()): void {
  if (scale === 'large') v8.setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
}

/** The flags to start a check process with (`npm start`, a forked benchmark service, a supervisor's command line). */
export const nodeFlagsForChecks = (scale: ServiceScale = serviceScale()): string[] =>
  scale === 'large'
    ? [`--max-semi-space-size=${SEMI_SPACE_MB}`, '--single-threaded-gc', '--no-memory-reducer']
    : [`--max-semi-space-size=${SMALL_SEMI_SPACE_MB}`, '--single-threaded-gc'];

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
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].map((flag) => flag.replaceAll('_', '-')));
  return nodeFlagsForChecks(scale).filter((flag) => !given.has(flag));
}
