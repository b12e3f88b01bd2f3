import fs from 'node:fs/promises';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ; 100 on Linux builds in practice). */
const USER_HZ = 100;

/** CPU (user + system, microseconds) used so far by process `pid` itself, from /proc (Linux only). */
export async function processCpuMicros(pid: number): Promise<number> {
  const text = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is state (field 3); utime is field 14, stime 15.
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / USER_HZ;
}
