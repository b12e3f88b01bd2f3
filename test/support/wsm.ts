import { ApiClient } from '../../src/interfaces/cli/api-client';
import { run, type CliIo } from '../../src/interfaces/cli/main';
import { testServer } from './test-server';

/** A wsm run's outcome: exit code and what it printed. */
export interface WsmRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Files the runs read and write, in memory, by name. */
export type WsmFiles = Map<string, string>;

/**
 * Runs the wsm command line in-process against the test service's address over real HTTP, with
 * `files` as its file system and `env` as its environment (WSM_URL set to the service).
 */
export async function wsm(
  argv: string[],
  options: { token: string; files?: WsmFiles; env?: Record<string, string>; client?: (url: string, token: string) => ApiClient },
): Promise<WsmRun> {
  const { url } = await testServer();
  const files = options.files ?? new Map<string, string>();
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env: { WSM_URL: url, WSM_TOKEN: options.token, ...options.env },
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    readFile: async (name) => {
      const text = files.get(name);
      if (text === undefined) throw new Error(`ENOENT: no such file ${name}`);
      return text;
    },
    writeFile: async (name, text) => void files.set(name, text),
    client: options.client ?? ((u, t) => new ApiClient(u, t)),
  };
  const code = await run(argv, io);
  return { code, stdout, stderr };
}
