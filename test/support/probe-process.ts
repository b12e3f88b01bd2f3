import { spawn } from 'node:child_process';
import path from 'node:path';
import { logLines, type ServiceProcess } from './service-process';

const ROOT = path.resolve(__dirname, '../..');

/**
 * A probe as `npm run probe` runs it (src/main/probe.ts through tsx), in a process of its own:
 * `env` gives at least PROBE_SERVER_URL, PROBE_KEY and DATA_DIR.
 */
export function spawnProbe(env: Record<string, string>): ServiceProcess {
  const { DATABASE_URL: _inherited, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main/probe.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...inherited, LOG_LEVEL: 'info', ...env },
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

/** Waits until the probe says it started, and answers its instance id; fails with its output if it exits first. */
export async function probeStarted(probe: ServiceProcess, withinMs = 60_000): Promise<string> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const line = logLines(probe).find((entry) => entry.msg === 'probe started');
    if (line) return line.instanceId as string;
    if (probe.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(
        `the probe ${probe.child.exitCode !== null ? 'exited' : 'did not start in time'}: ${probe.output.stderr || probe.output.stdout.slice(-2000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
