import { readFile } from 'node:fs/promises';
import type { Options } from '../args';
import { UsageError } from '../args';
import { BETTERSTACK_URL, fetchBetterStack, mapBetterStack } from './betterstack';
import { ImportError } from './http';
import { ImportDraft, renderImport, reportImport } from './shared';
import { mapKuma, readKumaFile } from './uptime-kuma';
import { fetchKumaLive } from './uptime-kuma-live';
import { fetchUptimeRobot, mapUptimeRobot, UPTIMEROBOT_URL } from './uptimerobot';

export { ImportError } from './http';

/** What an import needs of the world: the environment (the source's key), stdout and stderr, the output file. */
export interface ImportIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly writeFile: (name: string, text: string) => Promise<void>;
  readonly readBytes?: (name: string) => Promise<Uint8Array>;
}

export const IMPORT_SOURCES = ['uptimerobot', 'betterstack', 'uptime-kuma'] as const;

const secret = (env: NodeJS.ProcessEnv, name: string) => {
  const value = env[name];
  if (!value) throw new UsageError(`the source's key is read from ${name}, which is not set`);
  return value;
};

/** wsm import <source>: reads the source, maps it (pure), writes the file and lists on stderr what it could not map. */
export async function runImport(options: Options, io: ImportIo): Promise<number> {
  const draft = new ImportDraft();
  let label: string;
  if (options.source === 'uptimerobot') {
    const data = await fetchUptimeRobot(options.url || UPTIMEROBOT_URL, secret(io.env, 'UPTIMEROBOT_API_KEY'));
    mapUptimeRobot(data, draft);
    label = 'UptimeRobot';
  } else if (options.source === 'betterstack') {
    const data = await fetchBetterStack(options.url || BETTERSTACK_URL, secret(io.env, 'BETTERSTACK_API_TOKEN'));
    mapBetterStack(data, draft);
    label = 'Better Stack';
  } else if (options.source === 'uptime-kuma' && !options.file && options.url) {
    const login = { username: secret(io.env, 'UPTIME_KUMA_USERNAME'), password: secret(io.env, 'UPTIME_KUMA_PASSWORD') };
    mapKuma(await fetchKumaLive(options.url, { ...login, token: io.env.UPTIME_KUMA_TOKEN }), draft);
    draft.notes.push('maintenance and status pages are read from the SQLite file only (--file kuma.db)');
    label = 'Uptime Kuma';
  } else if (options.source === 'uptime-kuma') {
    if (!options.file) throw new UsageError('uptime-kuma reads its SQLite file (--file kuma.db) or a running instance (--url)');
    const read = io.readBytes ?? ((name: string) => readFile(name));
    let bytes: Uint8Array;
    try {
      bytes = await read(options.file);
    } catch (error) {
      throw new ImportError(`${options.file}: cannot read: ${(error as Error).message}`);
    }
    mapKuma(await readKumaFile(bytes), draft);
    label = 'Uptime Kuma';
  } else throw new UsageError(`unknown import source ${options.source} (one of ${IMPORT_SOURCES.join(', ')})`);
  const text = renderImport(draft, options.customer, label);
  if (options.out) await io.writeFile(options.out, text);
  else io.stdout(text);
  io.stderr(reportImport(draft));
  return 0;
}
