import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import { reclaimCluster } from './orphaned-postmaster';
import { initialiseCluster, postgresAccount, postgresBinaries, startPostmaster, type ServerAccount } from './postgres-server';

export interface EmbeddedDatabase {
  readonly url: string;
  /** The postmaster's process id. */
  readonly pid: number;
  stop(): Promise<void>;
}

interface Credentials {
  password: string;
}

/** Longest socket path the kernel takes (sun_path is 108 bytes with its terminating zero). */
const MAX_SOCKET_PATH = 107;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/**
 * Who may enter what under DATA_DIR. It holds secrets (the database password, key files), so no
 * one else may list or change it. Under root, PostgreSQL runs as `postgres` and owns its cluster
 * and socket folders alone (0700); DATA_DIR stays root's, and the postgres group may only pass
 * through it (0710) to reach them. The credentials file is read by the service, never by
 * PostgreSQL: root's, 0600. Without root, everything is the service user's, 0700.
 */
async function secure(dataDir: string, clusterDir: string, socketDir: string, credentialsFile: string, account: ServerAccount | null) {
  if (account) {
    await fs.chown(dataDir, 0, account.gid);
    await fs.chmod(dataDir, 0o710);
    for (const dir of [clusterDir, socketDir]) {
      await fs.chown(dir, account.uid, account.gid);
      await fs.chmod(dir, 0o700);
    }
    await fs.chown(credentialsFile, 0, 0);
  } else {
    for (const dir of [dataDir, clusterDir, socketDir]) await fs.chmod(dir, 0o700);
  }
  await fs.chmod(credentialsFile, 0o600);
}

/**
 * The embedded server's settings for a small deployment (a few thousand monitors at most; bench:small
 * measures 500): its autovacuum launcher wakes every 5 minutes instead of every minute (each wake
 * starts a worker process per database in turn, which cost an idle service about half a millisecond
 * of CPU a second), and its shared buffers are 32 MB instead of 128 (a small service's hot rows, the
 * schedule and the open day's results, fit; the rest is in the kernel's page cache either way). A
 * checkpoint comes every 30 minutes instead of 5 and writes its few dirty buffers at once
 * (`checkpoint_completion_target=0`): spread over 90 % of the interval, the checkpointer woke every
 * 100 ms for most of every 5 minutes to write the next one, about 1.2 ms of CPU a second, more than
 * every backend of a service checking 500 monitors together. Recovery after a crash replays at most
 * 30 minutes of a small service's write-ahead log (a few MB), and fewer checkpoints write fewer
 * full-page images to it.
 */
export const SMALL_DATABASE_SETTINGS: readonly string[] = [
  'autovacuum_naptime=300',
  'shared_buffers=32MB',
  'checkpoint_timeout=30min',
  'checkpoint_completion_target=0',
];

/**
 * Starts a real PostgreSQL whose cluster lives under `dataDir/postgres` and survives restarts.
 * PostgreSQL refuses to run as root, so under root it runs as the `postgres` user (created when
 * missing). The password is generated once and kept beside the cluster. A postmaster a killed
 * previous run left behind is stopped first, and a stale lock file removed (reclaimCluster).
 *
 * The server listens on 127.0.0.1 and on a Unix socket in `dataDir/socket`; the URL it answers
 * names the socket (when its path fits), which costs both sides less kernel work per round trip
 * than loopback TCP. Password authentication applies to both.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  options: {
    database?: string;
    logger?: Logger;
    persistent?: boolean;
    /** Listen here (a restart on the same address); default: a free port. */ port?: number;
    /** Sized for a small deployment (SMALL_DATABASE_SETTINGS): the service runs at the small scale. */
    small?: boolean;
  } = {},
): Promise<EmbeddedDatabase> {
  const { logger } = options;
  // An installation without the binaries (the image for an external database) says so before it writes anything.
  postgresBinaries();
  dataDir = path.resolve(dataDir);
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  const clusterDir = path.join(dataDir, 'postgres');
  const socketDir = path.join(dataDir, 'socket');
  const credentialsFile = path.join(dataDir, 'postgres-credentials.json');
  const account = os.userInfo().uid === 0 ? await postgresAccount() : null;
  const initialised = await fs.stat(path.join(clusterDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  let credentials: Credentials;
  if (initialised) {
    credentials = JSON.parse(await fs.readFile(credentialsFile, 'utf8')) as Credentials;
    await reclaimCluster(clusterDir, logger);
  } else {
    await fs.rm(clusterDir, { recursive: true, force: true });
    credentials = { password: randomBytes(18).toString('base64url') };
    await fs.writeFile(credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
  }
  const port = options.port ?? (await freePort());
  const useSocket = path.join(socketDir, `.s.PGSQL.${port}`).length <= MAX_SOCKET_PATH;
  await fs.mkdir(socketDir, { recursive: true, mode: 0o700 });
  await fs.mkdir(clusterDir, { recursive: true, mode: 0o700 });
  await secure(dataDir, clusterDir, socketDir, credentialsFile, account);
  if (!initialised) {
    logger?.info({ clusterDir }, 'creating the PostgreSQL cluster (first start)');
    await initialiseCluster(clusterDir, credentials.password, account);
  }
  const started = Date.now();
  const server = await startPostmaster(
    clusterDir,
    port,
    [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      '-c',
      `unix_socket_directories=${useSocket ? socketDir : ''}`,
      ...(options.small ? SMALL_DATABASE_SETTINGS.flatMap((setting) => ['-c', setting]) : []),
    ],
    account,
    (line) => logger?.debug({ component: 'postgres' }, line),
  );
  logger?.info({ pid: server.pid, port, ms: Date.now() - started }, 'PostgreSQL is ready');
  const persistent = options.persistent ?? true;
  const stop = async () => {
    await server.stop();
    if (!persistent) await fs.rm(clusterDir, { recursive: true, force: true });
  };
  try {
    const database = options.database ?? 'monitoring';
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: credentials.password, database: 'postgres' });
    await client.connect();
    try {
      const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
    } finally {
      await client.end();
    }
    const host = useSocket ? encodeURIComponent(socketDir) : '127.0.0.1';
    return { url: `postgresql://postgres:${encodeURIComponent(credentials.password)}@${host}:${port}/${database}`, pid: server.pid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
