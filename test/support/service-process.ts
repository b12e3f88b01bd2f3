import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** Its stdout (pino lines) and stderr so far. */
  readonly output: { stdout: string; stderr: string };
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The service as `npm start` runs it (src/main/server.ts, through tsx instead of tsc's output), in a
 * process of its own, on port 0 of loopback, as `user` if given. `env` adds to or overrides the
 * defaults; DATABASE_URL is not inherited, so it runs the embedded PostgreSQL unless given one.
 */
export function spawnService(env: Record<string, string>, user?: { uid: number; gid: number }): ServiceProcess {
  const { DATABASE_URL: _inherited, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main/server.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
  });
  const output = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    output.stdout += chunk;
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    output.stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return { child, output, exited };
}

/** The pino lines it wrote so far, parsed. */
export const logLines = (service: ServiceProcess): Array<Record<string, unknown>> =>
  service.output.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Waits until the service says it listens, and answers its URL; fails with its output if it exits first. */
export async function listening(service: ServiceProcess, withinMs = 90_000): Promise<string> {
  const deadline = Date.now() + withinMs;
  let exited = false;
  void service.exited.then(() => {
    exited = true;
  });
  for (;;) {
    const line = logLines(service).find((entry) => entry.msg === 'listening');
    if (line) return line.url as string;
    if (exited || Date.now() > deadline) {
      throw new Error(
        `the service ${exited ? 'exited' : 'did not listen in time'}: ${service.output.stderr || service.output.stdout.slice(-2000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Stops it as an orchestrator does (SIGTERM) and answers how it exited. */
export async function stopService(service: ServiceProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGTERM');
  return service.exited;
}
