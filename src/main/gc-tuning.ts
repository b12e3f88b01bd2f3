import v8 from 'node:v8';

/**
 * Garbage-collector settings for a process that runs checks (measured by `npm run bench:engine`).
 *
 * Every check allocates a socket, its streams and closures, and some of them reach the old
 * generation: a profile of what was promoted and later collected (bench:engine's BENCH_HEAP_PROFILE)
 * is mostly the checks' own sockets, streams, requests and closures, though a heap snapshot of the
 * running engine holds no finished check (what keeps them across young collections is not pinned
 * down). A full collection marks everything alive, and a check process keeps a large live heap (the
 * held schedule, the ORM's metadata, the API). Before this tuning, garbage collection took about a
 * third of the engine's CPU per check; with it, about 15 µs of some 160 (README).
 *
 * - `--max-semi-space-size` (MB) must be given when node starts (`npm start` does). Alone it cut the
 *   service's CPU per check by about a quarter (bench:engine, 660 checks/s).
 * - The old generation's growth factor can be changed at run time. V8's own factor keeps the heap
 *   small for short pauses: the engine promoted about 7 MB/s and ran a full collection every 4 s;
 *   letting the old generation grow to twice what survived the last one makes that every 18 s.
 * Together they cut the service's CPU per check by 17-45 % (bench:engine, the 20,000 + 20,000 mix at
 * 500 and 660 checks/s), for about 300 MB more resident memory at 40,000 monitors.
 * - V8's memory reducer is off (`--no-memory-reducer`, at start: set at run time it still ran, as
 *   `--trace-gc` showed, V8 having made it when the heap was set up). It shrinks the heap of a
 *   process it takes for idle with a few full collections (each marks the whole live heap, some
 *   70-140 ms of CPU here) and shrinks the young generation, so young collections then come
 *   several times as often until it grows again. A worker holding 40,000 monitors with few checks
 *   due (bench:engine, `BENCH_INTERVALS=60`) spent 11.5-12.9 ms of CPU a second with it and 7.1-7.8
 *   without (two runs each, 2026-11-23). The heap keeps its working size.
 * - `--single-threaded-gc` (at start): V8 collects on the main thread only, without helper threads
 *   scavenging in parallel, marking concurrently and sweeping behind it. On this 2-core machine the
 *   helpers' work competes with the checks, PostgreSQL and each other, and costs more CPU in all
 *   than the same collection done on one thread: interleaved pairs of runs at 500 checks/s cost
 *   TCP checks 85-90 µs all-in against 93-97, HTTP 142-152 against 147-162, the mix 107-117 against
 *   123-125 (bench:engine, ninth session). The price is longer pauses of the main thread
 *   (incremental marking still runs in steps); on a machine with cores to spare, dropping the flag
 *   trades CPU for shorter pauses.
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
