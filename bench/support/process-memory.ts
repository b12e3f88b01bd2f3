import fs from 'node:fs/promises';

/** A process's resident set (VmRSS), in bytes, from /proc (Linux only); null once it is gone. */
export async function residentBytes(pid: number): Promise<number | null> {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(await fs.readFile(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** A process's proportional set (Pss: its pages, shared ones divided among their sharers), in bytes. */
async function proportionalBytes(pid: number): Promise<number> {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(await fs.readFile(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * The memory of the PostgreSQL processes under `rootPid` (the postmaster and its backends), as the
 * sum of their proportional sets: shared buffers count once, not once per backend as resident sets would.
 */
export async function postgresMemoryBytes(rootPid: number): Promise<number> {
  const pids = (await fs.readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  await Promise.all(
    pids.map(async (pid) => {
      try {
        const text = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
        const close = text.lastIndexOf(')');
        names.set(Number(pid), text.slice(text.indexOf('(') + 1, close));
        parents.set(Number(pid), Number(text.slice(close + 2).split(' ')[1]));
      } catch {
        // Gone meanwhile.
      }
    }),
  );
  const under = (pid: number): boolean => {
    const parent = parents.get(pid);
    return parent === undefined || parent <= 1 ? false : parent === rootPid || under(parent);
  };
  const postgres = [...names].filter(([pid, name]) => name.startsWith('postgres') && under(pid)).map(([pid]) => pid);
  return (await Promise.all(postgres.map(proportionalBytes))).reduce((a, b) => a + b, 0);
}
