import { parseArgs } from 'node:util';

export const USAGE = `Usage: wsm export|plan|apply [--file F] [--url U] [--token T] [--customer ID] [--prune] [--detailed-exitcode]
       wsm import uptimerobot|betterstack|uptime-kuma [--url U] [--file kuma.db] [--customer ID] [--out F]
       wsm schema        prints the JSON Schema of the file
       wsm whoami        prints the token's user, role, scope and what it may do

  export   writes what the token sees (monitors, tags, channels, custom fields, windows, pages) (--customer: one customer's) as YAML, to --file or stdout
  plan     prints what apply would change (--detailed-exitcode: exit 0 no changes, 2 changes, 1 error)
  apply    carries the plan out (refused whole, before any write, when the token's role may not make a change);
           --prune also deletes what the file no longer names
  import   writes a file (to --out or stdout) from another service's monitors: --url is that service's API (default
           its public one; uptime-kuma reads its SQLite file, --file), the key from UPTIMEROBOT_API_KEY or
           BETTERSTACK_API_TOKEN; --customer writes the file for that customer; what it cannot map is listed on stderr

  --url and --token default to WSM_URL and WSM_TOKEN; --file defaults to wsm.yaml for plan and apply.`;

export interface Options {
  readonly command: 'export' | 'plan' | 'apply' | 'import' | 'schema' | 'whoami' | 'help';
  /** import: the source (uptimerobot, betterstack, uptime-kuma). */
  readonly source: string | null;
  /** import: where the file goes (null: stdout). */
  readonly out: string | null;
  readonly file: string | null;
  readonly url: string;
  readonly token: string;
  readonly customer: string | null;
  readonly prune: boolean;
  readonly detailedExitcode: boolean;
}

/** A command line that cannot run: the message says why (with the usage). */
export class UsageError extends Error {}

const EMPTY = { source: null, out: null, file: null, url: '', token: '', customer: null, prune: false, detailedExitcode: false };

export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): Options {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        file: { type: 'string', short: 'f' },
        url: { type: 'string' },
        out: { type: 'string', short: 'o' },
        token: { type: 'string' },
        customer: { type: 'string' },
        prune: { type: 'boolean', default: false },
        'detailed-exitcode': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help || command === 'help') return { ...EMPTY, command: 'help' };
  if (command === 'import') {
    if (rest.length !== 1) throw new UsageError(rest.length === 0 ? 'import needs a source' : `unexpected argument ${rest[1]}`);
    const { values } = parsed;
    return {
      ...EMPTY,
      command,
      source: rest[0]!,
      file: values.file ?? null,
      url: values.url ?? '',
      out: values.out ?? null,
      customer: values.customer ?? null,
    };
  }
  if (command !== 'export' && command !== 'plan' && command !== 'apply' && command !== 'schema' && command !== 'whoami')
    throw new UsageError(command === undefined ? 'a command is required' : `unknown command ${command}`);
  if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0]}`);
  const { values } = parsed;
  const url = values.url ?? env.WSM_URL ?? '';
  const token = values.token ?? env.WSM_TOKEN ?? '';
  if (command !== 'schema') {
    if (!url) throw new UsageError('the service address is required: --url or WSM_URL');
    if (!token) throw new UsageError('a token is required: --token or WSM_TOKEN');
  }
  return {
    command,
    source: null,
    out: null,
    file: values.file ?? (command === 'plan' || command === 'apply' ? 'wsm.yaml' : null),
    url,
    token,
    customer: values.customer ?? null,
    prune: values.prune,
    detailedExitcode: values['detailed-exitcode'],
  };
}
