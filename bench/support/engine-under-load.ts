import { fork, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBenchService, type BenchService } from './service';
import { loaderFlags, supportScript } from './scripts';
import { latenessBetween, type LatenessCounts } from '../../src/domain/scheduling/lateness-histogram';

export interface EngineStats {
  cpuMicros: number;
  rss: number;
  started: number;
  recorded: number;
  dropped: number;
  unrecorded: number;
  lateness: LatenessCounts;
}

export interface EngineUnderLoad {
  /** The service (HTTP API on `service.url`) with its check worker, as bench:engine runs it. */
  service: BenchService;
  /** The loopback targets the monitors check. */
  targets: { http: string; tcpPort: number };
  /** Checks per second the monitors make. */
  checksPerSecond: number;
  stats(): Promise<EngineStats>;
  stop(): Promise<void>;
}

/**
 * The engine as bench/engine.bench.ts runs it (bench/support/engine-process: the service with its
 * check worker and embedded PostgreSQL; loopback targets in a process of their own), `monitors` of
 * them (half HTTP, half TCP) on `intervals` minutes in turn, warmed up: every monitor's first result
 * (the one that creates its alert state) recorded, so what follows is the steady engine.
 * BENCH_ENGINE_WARMUP (seconds) shortens the warm-up for trial runs.
 */
export async function startEngineUnderLoad(
  monitors: number,
  intervals: number[],
  progress: (message: string) => void,
): Promise<EngineUnderLoad> {
  const targetsProcess: ChildProcess = fork(supportScript('targets-process'), [], { execArgv: [...loaderFlags] });
  const ports = await new Promise<{ http: number; tcp: number }>((resolve) => targetsProcess.once('message', resolve as never));
  const service = await startBenchService('engine-process');
  const http = Math.ceil(monitors / 2);
  const tcp = monitors - http;
  const checksPerSecond = (monitors / intervals.length) * intervals.reduce((sum, m) => sum + 1 / (60 * m), 0);
  const targets = { http: `http://127.0.0.1:${ports.http}/`, tcpPort: ports.tcp };
  const stats = () => service.request<EngineStats>({ type: 'stats' });
  const stop = async () => {
    await service.stop();
    targetsProcess.kill();
  };
  try {
    await service.request({ type: 'seed', http, tcp, httpUrl: targets.http, tcpPort: targets.tcpPort, intervals });
    // Past the longest interval (every monitor's first result), unless BENCH_ENGINE_WARMUP says (short trial runs).
    const warmup = Number(process.env.BENCH_ENGINE_WARMUP ?? 60 * Math.max(...intervals) + 15);
    progress(`${monitors} monitors seeded (${checksPerSecond.toFixed(0)} checks/s); ${warmup} s of warm-up`);
    await sleep(warmup * 1000);
    while ((await stats()).unrecorded > 2 * checksPerSecond) await sleep(1000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { service, targets, checksPerSecond, stats, stop };
}

/** Start lateness (ms) of the checks started between two stats, and the service's CPU over them. */
export function engineWindow(a: EngineStats, b: EngineStats) {
  const lateness = latenessBetween(a.lateness, b.lateness);
  return {
    checksStarted: lateness.count,
    latenessMs: { p50: lateness.percentile(0.5), p99: lateness.percentile(0.99), max: lateness.max() },
    dropped: b.dropped - a.dropped,
  };
}
