import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testCertificates } from './certificates';
import { PEER_SERVERS } from './peer-servers';
import { freeLoopbackPort, startServerProcess, stopServerProcess } from './server-process';

export interface RedisPeer {
  /** Plain TCP. */
  readonly port: number;
  /** TLS with the test certificates (localhost / 127.0.0.1, signed by the test CA). */
  readonly tlsPort: number;
  /** The default user's password (requirepass). */
  readonly password: string;
  /** An ACL user allowed AUTH, PING, INFO and GET only. */
  readonly user: { readonly username: string; readonly password: string };
  stop(): Promise<void>;
}

/**
 * TEST SUPPORT ONLY: Debian's redis-server on two free loopback ports of its own (plain and TLS), from
 * a temporary config: requirepass for the default user, one ACL user, no persistence. `greeting`
 * holds "hello redis".
 */
export async function startRedisPeer(): Promise<RedisPeer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redis-peer-'));
  const certs = testCertificates();
  const write = (name: string, text: string) => {
    fs.writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };
  const [port, tlsPort] = [await freeLoopbackPort(), await freeLoopbackPort()];
  const password = 'default-secret';
  const user = { username: 'monitor', password: 'monitor-secret' };
  const config = write(
    'redis.conf',
    [
      'bind 127.0.0.1',
      `port ${port}`,
      `tls-port ${tlsPort}`,
      `tls-cert-file ${write('server.crt', certs.valid.cert)}`,
      `tls-key-file ${write('server.key', certs.valid.key)}`,
      `tls-ca-cert-file ${write('ca.crt', certs.ca.cert)}`,
      'tls-auth-clients no',
      `dir ${dir}`,
      'save ""',
      'appendonly no',
      'daemonize no',
      'protected-mode no',
      `requirepass ${password}`,
      `user ${user.username} on >${user.password} ~* -@all +auth +ping +info +get`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = await startServerProcess(PEER_SERVERS.redis.program, [config], /Ready to accept connections/);
  const { Redis } = await import('ioredis');
  const admin = new Redis({ host: '127.0.0.1', port, password, lazyConnect: true });
  await admin.connect();
  await admin.set('greeting', 'hello redis');
  admin.disconnect();
  return {
    port,
    tlsPort,
    password,
    user,
    stop: async () => {
      await stopServerProcess(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
