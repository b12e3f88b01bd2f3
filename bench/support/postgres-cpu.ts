import fs from 'node:fs/promises';
import { runTimeMicros } from './process-cpu';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ; 100 on Linux builds in practice). */
const USER_HZ = 100;

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  /** Its own run time (schedstat, else utime + stime), plus cutime + cstime (children that exited and were reaped), in microseconds. */
  cpuMicros: number;
}

async function readStat(pid: string): Promise<ProcStat | null> {
  try {
    const text = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const fields = text.slice(close + 2).split(' ');
    // fields[0] is state (field 3); ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    // Its own run time to the nanosecond where the kernel keeps it (a PostgreSQL process is one thread), its reaped children's in ticks.
    const own = await runTimeMicros(`/proc/${pid}/schedstat`);
    const cpuMicros = Number.isFinite(own)
      ? own + ((Number(fields[13]) + Number(fields[14])) * 1_000_000) / USER_HZ
      : (ticks * 1_000_000) / USER_HZ;
    return { pid: Number(pid), ppid: Number(fields[1]), comm, cpuMicros };
  } catch {
    return null;
  }
}

/**
 * CPU used so far by the PostgreSQL processes under `rootPid` (the postmaster the embedded server
 * starts, and its backends): read from /proc, so Linux only. Backends and autovacuum workers that
 * exited are counted through the postmaster's reaped-children times (cutime, cstime).
 */
export async function postgresCpuMicros(rootPid: number): Promise<number | null> {
  let entries: string[];
  try {
    entries = (await fs.readdir('/proc')).filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const stats = (await Promise.all(entries.map(readStat))).filter((s): s is ProcStat => s !== null);
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  let total = 0;
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      if (child.comm.startsWith('postgres')) total += child.cpuMicros;
      walk(child.pid);
    }
  };
  walk(rootPid);
  return total;
}
