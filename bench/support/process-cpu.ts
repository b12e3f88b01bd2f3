import fs from 'node:fs/promises';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ; 100 on Linux builds in practice). */
const USER_HZ = 100;

/**
 * CPU (user + system, microseconds) used so far by process `pid` itself, from /proc (Linux only):
 * the scheduler's run time of each of its threads (`/proc/<pid>/task/<tid>/schedstat`, in
 * nanoseconds), where the kernel keeps it; else the clock ticks of `/proc/<pid>/stat` (10 ms each,
 * too coarse for a small service: a minute's window then moves by 0.17 ms a second per tick).
 */
export async function processCpuMicros(pid: number): Promise<number> {
  const threads = await threadCpuMicros(pid);
  return threads === null ? tickedMicros(pid) : threads.main + threads.others;
}

/** The scheduler's run time (µs) of one task, from its schedstat file (`/proc/<pid>[/task/<tid>]/schedstat`); NaN where there is none. */
export const runTimeMicros = (schedstat: string): Promise<number> =>
  fs.readFile(schedstat, 'utf8').then(
    (text) => Number(text.split(' ')[0]) / 1000,
    () => Number.NaN,
  );

/**
 * The run time (µs) of the process's main thread and of its other threads now alive (V8's
 * optimizing compiler and collector helpers, libuv's pool), from their schedstat; null where the
 * kernel keeps none.
 */
export async function threadCpuMicros(pid: number): Promise<{ main: number; others: number } | null> {
  try {
    const threads = await fs.readdir(`/proc/${pid}/task`);
    let main = 0;
    let others = 0;
    for (const tid of threads) {
      // A thread that exited since the listing counts for nothing.
      const micros = (await runTimeMicros(`/proc/${pid}/task/${tid}/schedstat`)) || 0;
      if (tid === String(pid)) main += micros;
      else others += micros;
    }
    return Number.isFinite(main + others) ? { main, others } : null;
  } catch {
    return null;
  }
}

/** The clock ticks of `/proc/<pid>/stat` (user + system), in µs. */
export async function tickedMicros(pid: number): Promise<number> {
  const text = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is state (field 3); utime is field 14, stime 15.
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / USER_HZ;
}
