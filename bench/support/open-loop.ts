import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';

export interface OpenLoopResult {
  requestsPerSecond: number;
  requests: number;
  non2xx: number;
  errors: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
}

/**
 * An open-loop load: requests start on a fixed schedule (`rate` per second, evenly spaced) over
 * `connections` keep-alive connections, whatever the answers' pace, and each latency is counted
 * from the request's scheduled start, so a slow answer that delays the next ones is not hidden
 * (no coordinated omission).
 */
export async function openLoop(
  url: string,
  headers: Record<string, string>,
  options: { connections: number; rate: number; durationSeconds: number },
): Promise<OpenLoopResult> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: options.connections, pipelining: 1 });
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const interval = 1000 / options.rate;
  const total = Math.floor(options.rate * options.durationSeconds);
  const started = performance.now();
  const pending: Array<Promise<void>> = [];
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(
      pool.request({ origin: target.origin, path: `${target.pathname}${target.search}`, method: 'GET', headers }).then(
        async (response) => {
          await response.body.arrayBuffer();
          if (response.statusCode < 200 || response.statusCode >= 300) non2xx++;
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
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Number((latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] ?? 0).toFixed(1));
  return {
    requestsPerSecond: Math.round(latencies.length / elapsed),
    requests: latencies.length,
    non2xx,
    errors,
    latencyMs: { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) },
  };
}
