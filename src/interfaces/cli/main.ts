import { readFile, writeFile } from 'node:fs/promises';
import { ApiClient, ApiError } from './api-client';
import { applyChanges } from './apply';
import { parseOptions, UsageError, USAGE, type Options } from './args';
import { MissingEnv, resolveEnv } from './env-refs';
import { exportFile } from './export';
import { fileJsonSchema } from './file-schema';
import { ImportError, runImport } from './import';
import { FileError, loadFile, type LoadedFile } from './file-loader';
import { identityOf, planChanges, PlanError, type Change } from './plan';
import { renderPlan } from './render';
import { customFieldFromEntry, pageFromEntry, windowFromEntry } from './linked-resources';
import { channelFromEntry, type Desired, monitorFromEntry, tagFromEntry } from './resources';
import { readServiceState } from './service-state';
import { refusedChanges, renderWhoAmI, whoAmI } from './permissions';

/**
 * wsm: monitoring as code over the public API. `run` is the whole tool with its world passed in
 * (tests run it in-process against a service's address); `main` is the bin's entry.
 */
export interface CliIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readFile: (name: string) => Promise<string>;
  readonly writeFile: (name: string, text: string) => Promise<void>;
  readonly client: (url: string, token: string) => ApiClient;
}

export const processIo: CliIo = {
  env: process.env,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  readFile: (name) => readFile(name, 'utf8'),
  writeFile: (name, text) => writeFile(name, text),
  client: (url, token) => new ApiClient(url, token),
};

/** Runs one command line; answers the exit code (plan --detailed-exitcode: 2 when there are changes). */
export async function run(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let options: Options;
  try {
    options = parseOptions(argv, io.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`wsm: ${error.message}\n\n${USAGE}\n`);
    return 1;
  }
  try {
    return await command(options, io);
  } catch (error) {
    if (error instanceof FileError || error instanceof PlanError || error instanceof ImportError || error instanceof UsageError)
      io.stderr(`wsm: ${error.message}\n`);
    else if (error instanceof ApiError) io.stderr(`wsm: the service refused: ${error.describe()}\n`);
    else throw error;
    return 1;
  }
}

async function command(options: Options, io: CliIo): Promise<number> {
  if (options.command === 'help') {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  if (options.command === 'schema') {
    io.stdout(`${JSON.stringify(fileJsonSchema(), null, 2)}\n`);
    return 0;
  }
  if (options.command === 'import') return runImport(options, io);
  if (options.command === 'whoami') {
    io.stdout(renderWhoAmI(await whoAmI(io.client(options.url, options.token))));
    return 0;
  }
  if (options.command === 'export') {
    const client = io.client(options.url, options.token);
    const { text, references } = exportFile(await readServiceState(client), options.customer);
    if (options.file) await io.writeFile(options.file, text);
    else io.stdout(text);
    if (references.length > 0)
      io.stderr(`wsm: the file refers to secrets the service never returns; set before plan or apply: ${references.join(', ')}\n`);
    return 0;
  }
  // The list calls go out before the file is read and checked (on this thread: a worker thread
  // reloads the CLI's modules and parses cold, more CPU than the parse, and the service's answers
  // need that CPU too): a refused file has then cost read calls, never a write, and its problems
  // are what is reported.
  const client = io.client(options.url, options.token);
  const reading = readServiceState(client);
  reading.catch(() => undefined);
  const file = await readInput(options.file!, io);
  const desired = desiredOf(file);
  const state = await reading;
  const resolve = (value: unknown, entry: Desired, field: string) => {
    try {
      return resolveEnv(value, io.env);
    } catch (error) {
      if (error instanceof MissingEnv) throw new PlanError(`${entry.whereField(field)}: ${field}: ${error.message}`);
      throw error;
    }
  };
  const changes = planChanges(desired, state.resources, { prune: options.prune, customer: file.content.customer ?? null, resolve });
  if (options.command === 'plan') {
    io.stdout(renderPlan(changes, file.name));
    return options.detailedExitcode && changes.length > 0 ? 2 : 0;
  }
  return apply(changes, state.resources, client, resolve, io);
}

async function apply(
  changes: Change[],
  resources: Awaited<ReturnType<typeof readServiceState>>['resources'],
  client: ApiClient,
  resolve: (value: unknown, entry: Desired, field: string) => unknown,
  io: CliIo,
): Promise<number> {
  if (changes.length === 0) {
    io.stdout('No changes: nothing to apply.\n');
    return 0;
  }
  const refused = refusedChanges(changes, (await whoAmI(client)).can);
  if (refused.length > 0) {
    io.stderr(`wsm: the token's role may not make these changes (nothing was applied): ${refused.join(', ')}\n`);
    return 1;
  }
  const tagIds = new Map(resources.filter((r) => r.type === 'tag').map((t) => [identityOf(t), t.id]));
  const monitors = resources.filter((r) => r.type === 'monitor');
  const monitorIds = new Map([...monitors.map((m) => [m.id, m.id] as const), ...monitors.map((m) => [m.key, m.id] as const)]);
  const outcome = await applyChanges(changes, { client, tagIds, monitorIds, resolve, print: (line) => io.stdout(`${line}\n`) });
  return outcome.failed > 0 ? 1 : 0;
}

async function readInput(name: string, io: CliIo): Promise<LoadedFile> {
  let text: string;
  try {
    text = await io.readFile(name);
  } catch (error) {
    throw new FileError([`${name}: cannot read: ${(error as Error).message}`]);
  }
  return loadFile(name, text);
}

/** The file's entries as resources; two entries with one key are refused, naming both lines. */
function desiredOf(file: LoadedFile): Desired[] {
  const customer = file.content.customer ?? null;
  const defaults = (file.content.defaults ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const monitorField = (i: number, kind: string) => (field: string) =>
    file.where(
      Object.hasOwn(file.content.monitors![i]!, field) || !Object.hasOwn(defaults[kind] ?? {}, field)
        ? ['monitors', i, field]
        : ['defaults', kind, field],
    );
  const entries = [
    ...(file.content.tags ?? []).map((t, i) =>
      tagFromEntry(
        t,
        customer,
        () => file.where(['tags', i]),
        (f) => file.where(['tags', i, f]),
      ),
    ),
    ...(file.content.notificationChannels ?? []).map((c, i) =>
      channelFromEntry(
        c,
        customer,
        () => file.where(['notificationChannels', i]),
        (f) => file.where(['notificationChannels', i, f]),
      ),
    ),
    ...(file.content.monitors ?? []).map((m, i) =>
      monitorFromEntry(m, customer, () => file.where(['monitors', i]), monitorField(i, m.kind), defaults[m.kind]),
    ),
    ...(file.content.customFields ?? []).map((f, i) =>
      customFieldFromEntry(
        f,
        () => file.where(['customFields', i]),
        (field) => file.where(['customFields', i, field]),
      ),
    ),
    ...(file.content.maintenanceWindows ?? []).map((w, i) =>
      windowFromEntry(
        w,
        customer,
        () => file.where(['maintenanceWindows', i]),
        (f) => file.where(['maintenanceWindows', i, f]),
      ),
    ),
    ...(file.content.statusPages ?? []).map((p, i) =>
      pageFromEntry(
        p,
        customer,
        () => file.where(['statusPages', i]),
        (f) => file.where(['statusPages', i, f]),
      ),
    ),
  ];
  if (customer !== null && (file.content.customFields ?? []).length > 0)
    throw new FileError([
      `${file.where(['customFields'])}: customFields: custom fields belong to the organization; a file of one customer cannot name them`,
    ]);
  const seen = new Map<string, Desired>();
  const problems: string[] = [];
  for (const entry of entries) {
    const first = seen.get(identityOf(entry));
    if (first) problems.push(`${entry.where()}: key: ${entry.type} ${entry.key} is named again (first at ${first.where()})`);
    else seen.set(identityOf(entry), entry);
  }
  if (problems.length > 0) throw new FileError(problems);
  return entries;
}

/** The bin's entry. */
export function main(): void {
  // Piped into a reader that stops early (| head): stop quietly.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
  });
  run(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`wsm: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
