import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchScale, monitorsLastHeld } from '../../../src/main/gc-tuning';

const ROOT = path.resolve(__dirname, '../../..');
const BASE = 'http://localhost:3000';

/** The shell blocks of the README's first-hour walkthrough, exactly as a reader pastes them. */
function walkthrough(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('<!-- first-run:begin -->'), readme.indexOf('<!-- first-run:end -->'));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(blocks, "the walkthrough's two blocks").to.have.length(2);
  return blocks.join('\n');
}

/** Runs in a process group of its own, so the jobs it leaves in the background stop with it. */
function run(command: string, args: string[], dataDir: string): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', PORT: '' },
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return; // already gone
  }
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      process.kill(-child.pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  process.kill(-child.pid, 'SIGKILL');
}

async function until<T>(probe: () => T | Promise<T>, what: string, withinMs: number): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const ready = async () => {
  try {
    return (await fetch(`${BASE}/readyz`)).status === 200;
  } catch {
    return false;
  }
};

/**
 * The README's first hour, pasted into a shell as a newcomer would: `npm start` on a fresh data
 * directory, a local target and a local receiver allowed by CHECK_PRIVATE_ALLOWLIST, a monitor,
 * a webhook channel, the target stopped; the receiver must print the incident. Then a second
 * `npm start` with nothing changed builds nothing and answers /readyz (how fast is a benchmark's
 * business, not a test's: a timed assertion here failed on a loaded machine).
 */
describe("the README's first-hour walkthrough, word for word", function () {
  this.timeout(420_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'first-hour-'));
  const started: ChildProcess[] = [];
  after(async () => {
    for (const child of started) await stopGroup(child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers a webhook to the local receiver when the local target goes down; a second start builds nothing and is ready', async () => {
    const first = run('bash', ['-c', walkthrough()], dataDir);
    started.push(first.child);
    const told = await until(
      () => /"event":"incident\.opened"/.test(first.output()),
      'the receiver to print incident.opened',
      360_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n--- output ---\n${first.output()}`);
    });
    expect(told).to.equal(true);
    await stopGroup(first.child);
    await until(async () => !(await ready()), 'the first service to stop', 30_000);
    // The embedded database's monitors as the service counted them when it stopped: the next start's scale.
    expect(await monitorsLastHeld(dataDir)).to.equal(1);
    expect(await launchScale({ DATA_DIR: dataDir, SERVICE_SCALE_LARGE_AT: '1' })).to.equal('large');

    const second = run('npm', ['start'], dataDir);
    started.push(second.child);
    await until(ready, 'the second start to be ready', 60_000);
    expect(second.output()).to.include('TypeScript build is current');
    expect(second.output()).to.include('Console build is current');
    expect(second.output()).not.to.match(/Compiling|Building the console/);
  });
});
