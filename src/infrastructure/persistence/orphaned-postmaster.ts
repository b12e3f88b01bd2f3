import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';

interface ProcessInfo {
  readonly state: string;
  readonly ppid: number;
}

/** State and parent of a process from /proc/<pid>/stat; null when there is none. */
async function processInfo(pid: number): Promise<ProcessInfo | null> {
  try {
    const text = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, ppid: Number(fields[1]) };
  } catch {
    return null;
  }
}

/** A zombie has exited: only its parent has not collected it yet (or never will, under a poor init). */
const isAlive = (info: ProcessInfo | null): info is ProcessInfo => info !== null && info.state !== 'Z' && info.state !== 'X';

/** Whether `pid` is a postmaster of `clusterDir`: it works in its data directory from its start. */
async function isPostmasterOf(pid: number, clusterDir: string): Promise<boolean> {
  const cwd = await fs.readlink(`/proc/${pid}/cwd`).catch(() => null);
  if (cwd !== null) return cwd === (await fs.realpath(clusterDir));
  const argv = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
  return argv.includes(clusterDir) || argv.includes(await fs.realpath(clusterDir));
}

/**
 * The service process a postmaster belongs to, if it still runs: its parent, when that is a node
 * process. An orphan's parent is init or a subreaper (it was re-parented when the service died).
 */
async function liveOwner(ppid: number): Promise<number | null> {
  if (ppid <= 1) return null;
  const exe = await fs.readlink(`/proc/${ppid}/exe`).catch(() => '');
  return /(^|\/)node[^/]*$/.test(exe) ? ppid : null;
}

async function exitsWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isAlive(await processInfo(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(await processInfo(pid));
}

/** Fast shutdown first; if it hangs, immediate shutdown; as a last resort, kill. */
async function stopOrphan(pid: number): Promise<void> {
  const steps = [
    ['SIGINT', 30_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ] as const;
  for (const [signal, waitMs] of steps) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    if (await exitsWithin(pid, waitMs)) return;
  }
  throw new Error(`the PostgreSQL a previous run left on DATA_DIR (pid ${pid}) does not stop`);
}

/**
 * Makes `clusterDir` startable after its service died without stopping PostgreSQL (SIGKILL, OOM,
 * power loss). postmaster.pid names the last postmaster: when that is an orphan of this cluster
 * (its service is gone), it is stopped; when no postmaster of this cluster runs under that pid
 * (dead, or the pid now belongs to another process after a reboot, which PostgreSQL would take for
 * a running server), the stale file is removed. A postmaster whose service still runs is left alone:
 * two services on one DATA_DIR is an error.
 *
 * Linux only (it reads /proc); elsewhere PostgreSQL's own check of the lock file applies.
 */
export async function reclaimCluster(clusterDir: string, logger?: Logger): Promise<void> {
  if (os.platform() !== 'linux') return;
  const lockFile = path.join(clusterDir, 'postmaster.pid');
  const text = await fs.readFile(lockFile, 'utf8').catch(() => null);
  if (text === null) return;
  const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
  const info = Number.isInteger(pid) && pid > 0 ? await processInfo(pid) : null;
  if (!isAlive(info) || !(await isPostmasterOf(pid, clusterDir))) {
    await fs.rm(lockFile, { force: true });
    logger?.warn(
      { pid: Number.isNaN(pid) ? null : pid },
      'removed a stale postmaster.pid (no PostgreSQL of this DATA_DIR runs under that pid)',
    );
    return;
  }
  const owner = await liveOwner(info.ppid);
  if (owner !== null) {
    throw new Error(
      `DATA_DIR is in use: its PostgreSQL (pid ${pid}) belongs to the running process ${owner}; stop that one or use another DATA_DIR`,
    );
  }
  logger?.warn({ pid }, 'stopping the PostgreSQL a previous run left behind (that run ended without stopping it)');
  await stopOrphan(pid);
  // A fast or immediate shutdown removes the file; after SIGKILL it stays, naming a dead pid.
  await fs.rm(lockFile, { force: true });
  logger?.info({ pid }, 'stopped the orphaned PostgreSQL');
}
