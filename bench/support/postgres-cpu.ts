import fs from 'node:fs';
import path from 'node:path';

const TICKS_PER_SECOND = 100;

/**
 * CPU (user + system, microseconds) of an embedded PostgreSQL since it started: the postmaster,
 * its live backends, and (through the postmaster's cutime/cstime) backends that have exited.
 * Null when the cluster is not local (DATABASE_URL) or /proc is unavailable.
 */
export function postgresCpuMicros(clusterDir: string): number | null {
  let postmaster: number;
  try {
    postmaster = Number(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
  let ticks = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(entry);
    const ppid = Number(fields[1]);
    if (pid === postmaster) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    else if (ppid === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks / TICKS_PER_SECOND) * 1e6;
}
