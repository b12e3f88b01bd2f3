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
 * - V8's memory reducer is off (run time too). It shrinks the heap of a process it takes for idle
 *   with a pair of full collections (each marks the whole live heap, about 140 ms of CPU here) and
 *   shrinks the young generation, so young collections then come several times as often until it
 *   grows again. A check process is never idle for long: with `--trace-gc-nvp`, TCP checks alone
 *   at 500/s spent about 32 µs per check collecting garbage with it (27 young and 3 full
 *   collections a minute) and 13 µs without (11 and 1); the heap keeps its working size. Untraced
 *   runs in the same hour did not show it beyond this machine's noise (TCP 103 against 96 µs
 *   all-in, HTTP 168 against 172).
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
  v8.setFlagsFromString('--no-memory-reducer');
}

/** The flags to start a check process with (a forked benchmark service, a supervisor's command line). */
export const nodeFlagsForChecks = (): string[] => [`--max-semi-space-size=${SEMI_SPACE_MB}`, '--single-threaded-gc'];
