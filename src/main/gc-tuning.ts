import v8 from 'node:v8';

/**
 * Garbage-collector settings for a process that runs checks (why: docs/check-engine.md; what they
 * buy: bench/README.md, `npm run bench:engine`).
 *
 * Every check allocates a socket, its streams and closures, and some of them reach the old
 * generation; a check process also keeps a large live heap (the held schedule, the ORM's metadata,
 * the API) that every full collection marks again. So:
 * - `--max-semi-space-size` (MB, at start: `npm start` gives it) lets most of a check's garbage
 *   die young instead of being promoted.
 * - The old generation may grow to twice what survived the last full collection (set at run time
 *   below), so full collections of that large live heap come several times less often, for more
 *   resident memory.
 * - V8's memory reducer is off (`--no-memory-reducer`, at start: set at run time V8 ignores it).
 *   It takes a worker between waves of checks for idle, runs full collections to shrink the heap
 *   and shrinks the young generation, after which young collections come far more often.
 * - `--single-threaded-gc` (at start): on a machine with few cores the collector's helper threads
 *   compete with the checks and PostgreSQL and cost more CPU in all than the same work on one
 *   thread. The price is longer main-thread pauses; with cores to spare, drop the flag.
 */
const SEMI_SPACE_MB = 64;
const OLD_GENERATION_GROWTH_PERCENT = 100;

/** Applies what can be applied at run time (the host calls it once, before starting the engine). */
export function tuneGarbageCollection(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
}

/** The flags to start a check process with (`npm start`, a forked benchmark service, a supervisor's command line). */
export const nodeFlagsForChecks = (): string[] => [`--max-semi-space-size=${SEMI_SPACE_MB}`, '--single-threaded-gc', '--no-memory-reducer'];

/**
 * Which of those flags this process was started without (on node's command line or, where node
 * allows them there, in NODE_OPTIONS): the host warns about them, since they cannot be applied once
 * it runs.
 */
export function missingNodeFlags(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): string[] {
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].map((flag) => flag.replaceAll('_', '-')));
  return nodeFlagsForChecks().filter((flag) => !given.has(flag));
}
