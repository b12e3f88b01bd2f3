import fs from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

/**
 * A CPU profile of this process over the bench's IPC: `{type: 'profile-start'}`, then
 * `{type: 'profile-stop', file}` writes it there. The answer takes a message and says whether it
 * was one of those two (handled and answered).
 */
export function cpuProfiler(): (m: { type: string; id: number; file?: unknown }) => Promise<boolean> {
  const session = new Session();
  return async (m) => {
    if (m.type === 'profile-start') {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    } else if (m.type === 'profile-stop') {
      const { profile } = await session.post('Profiler.stop');
      await fs.writeFile(String(m.file), JSON.stringify(profile));
      session.disconnect();
    } else {
      return false;
    }
    process.send!({ id: m.id });
    return true;
  };
}
