import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Pem } from './certificates';

export interface MosquittoBroker {
  /** Plain MQTT on 127.0.0.1. */
  readonly port: number;
  /** MQTT over TLS on 127.0.0.1, with the certificate given. */
  readonly tlsPort: number;
  stop(): Promise<void>;
}

/** A free loopback TCP port (closed again: the broker binds it next). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once something accepts on 127.0.0.1:port (polled every 50 ms, up to 10 s). */
async function accepting(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(true));
      socket.once('error', () => resolve(false));
    }).catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`mosquitto did not listen on ${port}`);
}

/**
 * TEST SUPPORT ONLY: Debian's mosquitto (/usr/sbin/mosquitto), started with a temporary
 * configuration: a plain and a TLS listener on free loopback ports, no anonymous access, the users
 * given (a password file made with mosquitto_passwd) and an ACL granting each `readwrite` on the
 * topics given (anything else is denied).
 */
export async function aMosquittoBroker(users: Record<string, string>, topics: readonly string[], pem: Pem): Promise<MosquittoBroker> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mosquitto-'));
  const file = (name: string) => path.join(dir, name);
  fs.writeFileSync(file('passwd'), '');
  for (const [user, password] of Object.entries(users)) execFileSync('mosquitto_passwd', ['-b', file('passwd'), user, password]);
  fs.writeFileSync(
    file('acl'),
    Object.keys(users)
      .map((user) => [`user ${user}`, ...topics.map((t) => `topic readwrite ${t}`)].join('\n'))
      .join('\n\n') + '\n',
  );
  fs.writeFileSync(file('cert.pem'), pem.cert);
  fs.writeFileSync(file('key.pem'), pem.key);
  const [port, tlsPort] = [await freePort(), await freePort()];
  fs.writeFileSync(
    file('mosquitto.conf'),
    [
      'user root',
      'per_listener_settings false',
      'allow_anonymous false',
      `password_file ${file('passwd')}`,
      `acl_file ${file('acl')}`,
      'persistence false',
      'log_dest stderr',
      'log_type error',
      `listener ${port} 127.0.0.1`,
      `listener ${tlsPort} 127.0.0.1`,
      `certfile ${file('cert.pem')}`,
      `keyfile ${file('key.pem')}`,
      '',
    ].join('\n'),
  );
  const broker = spawn('/usr/sbin/mosquitto', ['-c', file('mosquitto.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  broker.stderr.on('data', (chunk: Buffer) => (errors += String(chunk)));
  const exited = new Promise<void>((resolve) => broker.once('exit', () => resolve()));
  try {
    await Promise.race([
      Promise.all([accepting(port), accepting(tlsPort)]),
      exited.then(() => Promise.reject(new Error(`mosquitto exited: ${errors}`))),
    ]);
  } catch (error) {
    broker.kill();
    throw error;
  }
  return {
    port,
    tlsPort,
    stop: async () => {
      broker.kill();
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
