import pg from 'pg';

export interface ServerDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** Runs one statement on `serverUrl` with a client of its own. */
async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * TEST SUPPORT ONLY: creates the empty database `name` on the PostgreSQL server `serverUrl` reaches
 * (any of its databases will do), answering its URL and how to drop it (with the sessions still on it).
 */
export async function createServerDatabase(serverUrl: string, name: string): Promise<ServerDatabase> {
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
