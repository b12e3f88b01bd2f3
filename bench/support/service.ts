import { fork, type ChildProcess } from 'node:child_process';
import { environmentForChecks, nodeFlagsForChecks, type ServiceScale } from '../../src/main/gc-tuning';
import { loaderFlags, supportScript } from './scripts';

/** A handle on the service process: its URL, its CPU counter, and IPC requests. */
export interface BenchService {
  url: string;
  /** The service process (PostgreSQL's embedded server runs under it). */
  pid: number;
  /** Everything the process said when it was ready. */
  ready: Record<string, unknown>;
  request<T>(message: Record<string, unknown>): Promise<T>;
  cpuMicros(): Promise<number>;
  stop(): Promise<void>;
  /** Settles with the reason when the process ends without being asked to stop (a bench then exits at once). */
  died: Promise<Error>;
}

/**
 * Forks `script` (a script of bench/support by name; the default answers the auth bench's requests),
 * with `env` added to this process's environment and `args` on its command line.
 */
export async function startBenchService(
  script = 'service-process',
  options: { env?: Record<string, string>; args?: string[]; scale?: ServiceScale } = {},
): Promise<BenchService> {
  // Started as `npm start` starts the host at a scale, its environment and flags (BENCH_GC_DEFAULTS: V8's and glibc's defaults; BENCH_NODE_FLAGS:
  // more flags). The benches measure the large end unless they say (or SERVICE_SCALE says) otherwise.
  const scale = options.scale ?? (process.env.SERVICE_SCALE === 'small' ? 'small' : 'large');
  const nodeFlags = [
    ...(process.env.BENCH_GC_DEFAULTS === undefined ? nodeFlagsForChecks(scale) : []),
    ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
  ];
  const child: ChildProcess = fork(supportScript(script), options.args ?? [], {
    execArgv: [...loaderFlags, ...nodeFlags],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      ...process.env,
      ...(process.env.BENCH_GC_DEFAULTS === undefined ? environmentForChecks(scale) : {}),
      SERVICE_SCALE: scale,
      ...options.env,
    },
  });
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
    child.on('message', (m: { type?: string }) => m.type === 'ready' && resolve(m));
  });
  const url = String(ready.url);
  let next = 0;
  // A request to a process that died is never answered: fail it rather than wait forever.
  let exited: Error | undefined;
  const failures = new Set<(error: Error) => void>();
  let died: (error: Error) => void = () => {};
  const death = new Promise<Error>((resolve) => (died = resolve));
  child.on('exit', (code, signal) => {
    exited = new Error(`${script} exited (${signal ?? code})`);
    for (const fail of failures) fail(exited);
    died(exited);
  });
  const request = <T>(message: Record<string, unknown>) =>
    new Promise<T>((resolve, reject) => {
      if (exited) return reject(exited);
      failures.add(reject);
      const id = ++next;
      const listener = (reply: { id?: number; error?: string }) => {
        if (reply.id !== id) return;
        child.off('message', listener);
        failures.delete(reject);
        // A request the process could not do is answered with its error (and does not end the process).
        if (typeof reply.error === 'string') reject(new Error(`${script}: ${reply.error}`));
        else resolve(reply as T);
      };
      child.on('message', listener);
      child.send({ ...message, id });
    });
  return {
    url,
    ready,
    pid: child.pid!,
    request,
    cpuMicros: async () => (await request<{ cpuMicros: number }>({ type: 'cpu' })).cpuMicros,
    died: death,
    stop: async () => {
      // A process already gone is not waited for (the wait would never end).
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.removeAllListeners('exit');
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop', id: 0 });
      await ended;
    },
  };
}
