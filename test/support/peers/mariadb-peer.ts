import { execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { testCertificates } from './certificates';
import { PEER_SERVERS } from './peer-servers';
import { freeLoopbackPort, startServerProcess, stopServerProcess } from './server-process';

export interface MariadbPeer {
  readonly port: number;
  /** A user with a password (from any host) owning the database `shop`, whose table `greeting` holds one row. */
  readonly user: { readonly username: string; readonly password: string };
  /** Run SQL as root (over the Unix socket). */
  admin(sql: string): Promise<void>;
  stop(): Promise<void>;
}

/** Beside mariadbd in Debian's mariadb-server. */
const INSTALL_DB = '/usr/bin/mariadb-install-db';

/**
 * TEST SUPPORT ONLY: Debian's MariaDB in a temporary directory: a datadir initialised there, mariadbd
 * on a free loopback port with its socket in the same directory and TLS from the test certificates (none with `tls: false`)
 * (as root, which CI is, it runs with --user=root), one user with a password; stopped and removed by `stop`.
 */
export async function startMariadbPeer(options: { tls?: boolean } = {}): Promise<MariadbPeer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mariadb-peer-'));
  const file = (name: string) => path.join(dir, name);
  const certs = testCertificates();
  fs.writeFileSync(file('server.crt'), certs.valid.cert);
  fs.writeFileSync(file('server.key'), certs.valid.key);
  fs.writeFileSync(file('ca.crt'), certs.ca.cert);
  const asUser = os.userInfo().uid === 0 ? ['--user=root'] : [];
  await promisify(execFile)(INSTALL_DB, [
    '--no-defaults',
    `--datadir=${file('data')}`,
    ...asUser,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
  ]);
  const port = await freeLoopbackPort();
  const socket = file('mysqld.sock');
  const child: ChildProcess = await startServerProcess(
    PEER_SERVERS.mariadb.program,
    [
      '--no-defaults',
      `--datadir=${file('data')}`,
      `--socket=${socket}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--pid-file=${file('mariadbd.pid')}`,
      '--skip-log-bin',
      '--innodb-buffer-pool-size=16M',
      ...(options.tls === false
        ? ['--skip-ssl']
        : [`--ssl-cert=${file('server.crt')}`, `--ssl-key=${file('server.key')}`, `--ssl-ca=${file('ca.crt')}`]),
      ...asUser,
    ],
    /ready for connections/,
  );
  const mysql = await import('mysql2/promise');
  const admin = async (sql: string) => {
    const connection = await mysql.createConnection({ socketPath: socket, user: 'root', password: '', multipleStatements: true });
    try {
      await connection.query(sql);
    } finally {
      await connection.end();
    }
  };
  const user = { username: 'monitor', password: 'monitor-secret' };
  await admin(
    `CREATE DATABASE shop; CREATE TABLE shop.greeting (text varchar(64)); INSERT INTO shop.greeting VALUES ('hello mariadb');` +
      `CREATE USER '${user.username}'@'%' IDENTIFIED BY '${user.password}'; GRANT ALL ON shop.* TO '${user.username}'@'%';`,
  );
  return {
    port,
    user,
    admin,
    stop: async () => {
      await stopServerProcess(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
