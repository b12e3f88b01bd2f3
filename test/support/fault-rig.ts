import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { aFreshDatabase, type FreshDatabase } from './fresh-database';
import { apiAt, type ApiResponse, type RequestOptions } from './http-client';
import { uniqueEmail } from './builders';
import { testDnsServer } from './test-server';
import { testCertificates } from './peers/certificates';
import { SmtpPeer } from './peers/smtp-peer';
import { listening, logLines, spawnService, stopService, type ServiceProcess } from './service-process';

/** A service process of a fault test: its process, URL and the name its check worker registers under. */
export interface RunningService {
  readonly name: string;
  readonly service: ServiceProcess;
  readonly url: string;
  readonly pid: number;
}

/**
 * TEST SUPPORT ONLY: a fault test's world. A database of its own on the run's PostgreSQL (so its
 * processes take no other test's monitors or jobs), the loopback DNS server, and real service
 * processes as `npm start` runs them, started, killed hard (SIGKILL) and restarted on that database.
 * Every process checks loopback targets (CHECK_PRIVATE_ALLOWLIST 127.0.0.0/8).
 */
export class FaultRig {
  private readonly spawned: ServiceProcess[] = [];
  private readonly pool: pg.Pool;

  private constructor(
    readonly database: FreshDatabase,
    readonly dataDir: string,
    private readonly env: Record<string, string>,
  ) {
    this.pool = new pg.Pool({ connectionString: database.url, max: 2 });
    this.pool.on('error', () => undefined);
  }

  static async create(label: string, env: Record<string, string> = {}): Promise<FaultRig> {
    const database = await aFreshDatabase(`fault_${label}`);
    const dns = await testDnsServer();
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `fault-${label}-`));
    return new FaultRig(database, dataDir, {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      DNS_SERVERS: dns.server,
      CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
      LOG_LEVEL: 'info',
      ...env,
    });
  }

  /** Starts a service process (`env` adds to the rig's) and waits until it listens. */
  async start(name: string, env: Record<string, string> = {}): Promise<RunningService> {
    const service = this.spawn(env);
    const url = await listening(service);
    return { name, service, url, pid: service.child.pid! };
  }

  /** Starts a service process without waiting for it (its jobs may run before it listens). */
  spawn(env: Record<string, string> = {}): ServiceProcess {
    const service = spawnService({ ...this.env, ...env });
    this.spawned.push(service);
    return service;
  }

  /** SIGKILL: the process dies at once, in whatever it was doing. */
  async kill(running: RunningService | ServiceProcess): Promise<void> {
    const service = 'service' in running ? running.service : running;
    service.child.kill('SIGKILL');
    expect(await service.exited, 'killed').to.deep.equal({ code: null, signal: 'SIGKILL' });
  }

  /** One statement on the rig's database (for what the test observes; the processes do the work). */
  async sql<T extends Record<string, unknown> = Record<string, any>>(text: string, params: unknown[] = []): Promise<T[]> {
    return (await this.pool.query(text, params)).rows as T[];
  }

  async close(): Promise<void> {
    for (const service of this.spawned.splice(0)) await stopService(service);
    await this.pool.end();
    await this.database.drop().catch(() => undefined);
    await fs.rm(this.dataDir, { recursive: true, force: true });
  }
}

/** An organization signed up through a process of the rig: its first admin (token, id, e-mail) and its id. */
export async function signUpAt(
  url: string,
  label: string,
): Promise<{ token: string; organizationId: number; userId: string; email: string }> {
  const email = uniqueEmail(label);
  const response = await apiAt(url, 'POST', '/api/auth/sign-up/email', {
    body: {
      name: 'Ada Lovelace',
      email,
      password: 'correct horse battery',
      organizationName: `${label} ${randomBytes(3).toString('hex')}`,
    },
  });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return {
    token: response.body.token as string,
    organizationId: response.body.user.organizationId as number,
    userId: response.body.user.id as string,
    email,
  };
}

/** A call that must succeed with `status`: answers the body. */
export async function mustCall(url: string, method: string, route: string, status: number, options: RequestOptions = {}): Promise<any> {
  const response: ApiResponse = await apiAt(url, method, route, options);
  expect(response.status, `${method} ${route}: ${JSON.stringify(response.body)}`).to.equal(status);
  return response.body;
}

/** Whether a process logged a line with this message. */
export const logged = (running: RunningService, msg: string): boolean => logLines(running.service).some((line) => line.msg === msg);

/**
 * A fault rig whose processes mail through a loopback SMTP server reachable as `mailHost` (set in
 * the test DNS), delivering promptly (`NOTIFY_POLL_MS` 100, retries from 50 ms), and running no
 * checks (`CHECK_LOCATIONS` none) unless `env` says otherwise.
 */
export async function aMailingRig(name: string, mailHost: string, env: Record<string, string> = {}) {
  const smtp = new SmtpPeer(testCertificates().selfSigned, { starttls: false });
  await smtp.start();
  (await testDnsServer()).set(mailHost, { A: ['127.0.0.1'] });
  const rig = await FaultRig.create(name, {
    SMTP_URL: `smtp://user:secret@${mailHost}:${smtp.port}`,
    SMTP_FROM: `${name}@platform.example`,
    NOTIFY_POLL_MS: '100',
    NOTIFY_RETRY_BASE_MS: '50',
    CHECK_LOCATIONS: 'none',
    ...env,
  });
  return {
    rig,
    smtp,
    async close(): Promise<void> {
      await rig.close();
      await smtp.stop();
    },
  };
}
