import { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import snmp from 'net-snmp';

export interface SnmpdAgent {
  /** UDP on 127.0.0.1. */
  readonly port: number;
  stop(): Promise<void>;
}

/** A free loopback UDP port (closed again: the agent binds it next). */
async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** Resolves once the agent answers a v2c GET of sysUpTime (tried every 100 ms, up to 10 s). */
async function answering(port: number, community: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const session = snmp.createSession('127.0.0.1', community, { port, retries: 0, timeout: 100, version: snmp.Version2c });
      session.on('error', () => undefined);
      session.get(['1.3.6.1.2.1.1.3.0'], (error) => {
        session.close();
        resolve(!error);
      });
    });
    if (ok) return;
  }
  throw new Error(`snmpd did not answer on ${port}`);
}

/**
 * TEST SUPPORT ONLY: Debian's snmpd (/usr/sbin/snmpd), in the foreground with a temporary
 * configuration only (-C -c): one loopback UDP port, a read-only v2c community and the v3 users
 * given (`createUser` lines, `rouser` at their level), sysLocation set; its persistent state in a
 * temporary directory.
 */
export async function anSnmpdAgent(settings: {
  community: string;
  users: readonly { line: string; name: string; level: 'noauth' | 'auth' | 'priv' }[];
  location: string;
}): Promise<SnmpdAgent> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snmpd-'));
  const port = await freeUdpPort();
  const conf = path.join(dir, 'snmpd.conf');
  fs.writeFileSync(
    conf,
    [
      `agentAddress udp:127.0.0.1:${port}`,
      `rocommunity ${settings.community} 127.0.0.1`,
      ...settings.users.flatMap((u) => [`createUser ${u.line}`, `rouser ${u.name} ${u.level}`]),
      `sysLocation ${settings.location}`,
      'sysContact tests',
      '',
    ].join('\n'),
  );
  const agent = spawn('/usr/sbin/snmpd', ['-f', '-Lo', '-C', '-c', conf], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SNMP_PERSISTENT_DIR: dir, MIBS: '' },
  });
  let output = '';
  const keep = (chunk: Buffer) => (output += String(chunk));
  agent.stdout.on('data', keep);
  agent.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => agent.once('exit', () => resolve()));
  try {
    await Promise.race([answering(port, settings.community), exited.then(() => Promise.reject(new Error(`snmpd exited: ${output}`)))]);
  } catch (error) {
    agent.kill();
    throw error;
  }
  return {
    port,
    stop: async () => {
      agent.kill();
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
