import { spawn } from 'node:child_process';
import { fping, notInstalledReason } from '../system-tools';

interface Pending {
  address: string;
  resolve(rtts: number[]): void;
  reject(error: Error): void;
}

/** How long requests wait to share a process, and the most targets one fping process takes. */
const BATCH_WINDOW_MS = 15;
const MAX_BATCH = 256;
const PERIOD_MS = 100;

/**
 * ICMP echo via the system's fping, batched: checks arriving within a few milliseconds (with the
 * same packet count and timeout) share one `fping -C N -q` process, never one process per check.
 */
export class FpingBatchProber {
  private readonly batches = new Map<string, { items: Pending[]; timer: NodeJS.Timeout }>();

  constructor(private readonly binary = 'fping') {}

  /** Round-trip times (ms) of the replies to `packets` echo requests; fewer entries = loss. */
  probe(address: string, packets: number, timeoutMs: number): Promise<number[]> {
    const perPing = Math.max(100, Math.min(2_000, Math.floor(timeoutMs / 2)));
    const key = `${packets}:${perPing}`;
    return new Promise((resolve, reject) => {
      let batch = this.batches.get(key);
      if (!batch) {
        batch = { items: [], timer: setTimeout(() => this.flush(key, packets, perPing), BATCH_WINDOW_MS) };
        this.batches.set(key, batch);
      }
      batch.items.push({ address, resolve, reject });
      if (batch.items.length >= MAX_BATCH) {
        clearTimeout(batch.timer);
        this.flush(key, packets, perPing);
      }
    });
  }

  private flush(key: string, packets: number, perPingMs: number): void {
    const batch = this.batches.get(key);
    if (!batch) return;
    this.batches.delete(key);
    const addresses = [...new Set(batch.items.map((i) => i.address))];
    const args = ['-C', String(packets), '-q', '-B1', '-r0', '-t', String(perPingMs), '-p', String(PERIOD_MS), ...addresses];
    const child = spawn(this.binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let output = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'ENOENT' ? notInstalledReason(fping(this.binary)) : `fping could not run: ${error.message}`;
      batch.items.forEach((i) => i.reject(new Error(reason)));
    });
    child.once('close', () => {
      const results = parseFpingCounts(output);
      for (const item of batch.items) {
        const rtts = results.get(item.address);
        if (rtts) item.resolve(rtts);
        else
          item.reject(
            new Error(
              `fping gave no result for ${item.address}: ${
                output
                  .trim()
                  .split('\n')
                  .find((l) => l.includes(item.address)) ?? 'no output'
              }`,
            ),
          );
      }
    });
  }
}

/** `127.0.0.1 : 0.04 - 0.05` lines of `fping -C N -q`, as replies per address. */
export function parseFpingCounts(output: string): Map<string, number[]> {
  const results = new Map<string, number[]>();
  for (const line of output.split('\n')) {
    const match = /^(\S+)\s+:\s+([\d.\s-]+)$/.exec(line.trim());
    if (!match) continue;
    const rtts = match[2]!
      .trim()
      .split(/\s+/)
      .filter((v) => v !== '-')
      .map(Number)
      .filter((n) => Number.isFinite(n));
    results.set(match[1]!, rtts);
  }
  return results;
}
