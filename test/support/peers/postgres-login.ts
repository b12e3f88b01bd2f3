import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { testDatabase } from '../test-server';

export interface PostgresLogin {
  /** The loopback TCP port of the test run's PostgreSQL. */
  readonly port: number;
  readonly username: string;
  readonly password: string;
  readonly database: string;
  drop(): Promise<void>;
}

/**
 * TEST SUPPORT ONLY: a role with a password and a database it owns (holding a table `greeting`) on the
 * test run's PostgreSQL, for the PostgreSQL monitor's checks; dropped after.
 */
export async function aPostgresLogin(): Promise<PostgresLogin> {
  const { url } = await testDatabase();
  const suffix = randomBytes(4).toString('hex');
  const username = `check_${suffix}`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const database = `checked_${suffix}`;
  const run = async (connection: string | pg.ClientConfig, ...statements: string[]) => {
    const client = new pg.Client(connection);
    await client.connect();
    try {
      for (const sql of statements) await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(url, `CREATE ROLE ${username} LOGIN PASSWORD '${password}'`, `CREATE DATABASE ${database} OWNER ${username}`);
  const port = Number(new URL(url).port || 5432);
  await run(
    { host: '127.0.0.1', port, user: username, password, database },
    `CREATE TABLE greeting (text text)`,
    `INSERT INTO greeting VALUES ('hello postgres')`,
  );
  return {
    port,
    username,
    password,
    database,
    drop: () => run(url, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`, `DROP ROLE IF EXISTS ${username}`),
  };
}

/**
 * TEST SUPPORT ONLY: turns TLS on in the test run's PostgreSQL (ALTER SYSTEM and a reload, which
 * PostgreSQL applies to new connections without a restart) with the test certificates, the files
 * owned by the server's own account as PostgreSQL requires; the answer turns it off again. Plain
 * connections keep working meanwhile (pg_hba's host lines take both).
 */
export async function withPostgresTls(certificate: { cert: string; key: string }): Promise<() => Promise<void>> {
  const { url } = await testDatabase();
  const client = new pg.Client(url);
  await client.connect();
  const query = async (sql: string) => (await client.query(sql)).rows as Record<string, string>[];
  try {
    const [{ dir }] = (await query(`SELECT current_setting('data_directory') AS dir`)) as [{ dir: string }];
    const owner = fs.statSync(dir);
    const certDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-tls-'));
    const cert = path.join(certDir, 'server.crt');
    const key = path.join(certDir, 'server.key');
    fs.writeFileSync(cert, certificate.cert);
    fs.writeFileSync(key, certificate.key, { mode: 0o600 });
    for (const file of [certDir, cert, key]) fs.chownSync(file, owner.uid, owner.gid);
    await query(`ALTER SYSTEM SET ssl_cert_file = '${cert}'`);
    await query(`ALTER SYSTEM SET ssl_key_file = '${key}'`);
    await query(`ALTER SYSTEM SET ssl = on`);
    await query(`SELECT pg_reload_conf()`);
    // the postmaster applies a reload asynchronously: wait until a new session sees it
    for (let i = 0; i < 100 && (await freshSetting(url, 'ssl')) !== 'on'; i++) await new Promise((r) => setTimeout(r, 50));
    return async () => {
      await run(
        url,
        `ALTER SYSTEM RESET ssl`,
        `ALTER SYSTEM RESET ssl_cert_file`,
        `ALTER SYSTEM RESET ssl_key_file`,
        `SELECT pg_reload_conf()`,
      );
      for (let i = 0; i < 100 && (await freshSetting(url, 'ssl')) !== 'off'; i++) await new Promise((r) => setTimeout(r, 50));
      fs.rmSync(certDir, { recursive: true, force: true });
    };
  } finally {
    await client.end();
  }
}

async function run(url: string, ...statements: string[]): Promise<void> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    for (const sql of statements) await client.query(sql);
  } finally {
    await client.end();
  }
}

async function freshSetting(url: string, name: string): Promise<string> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return ((await client.query(`SELECT current_setting('${name}') AS value`)).rows[0] as { value: string }).value;
  } finally {
    await client.end();
  }
}
