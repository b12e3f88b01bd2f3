import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { apiAt, type ApiResponse } from './http-client';
import { testConfig, testDatabase, testDnsServer } from './test-server';
import { startApplication, type RunningApplication } from '../../src/main/application';

/** A loopback peer a test starts beside the service (a webhook receiver, an SMTP server). */
export interface Peer {
  start(): Promise<unknown>;
  stop(): Promise<void>;
}

export interface EngineService {
  readonly app: RunningApplication;
  /** The loopback target's base URL (`http://127.0.0.1:port`), answering as `respond` says. */
  readonly targetUrl: string;
  /** One API call to the service as `token`. */
  call(method: string, path: string, token: string, body?: unknown): Promise<ApiResponse>;
  stop(): Promise<void>;
}

/**
 * The service as `npm start` runs it (check worker, notification worker; no job system), on its own
 * database, with a loopback target the test controls, the peers it is told about, and a test DNS
 * server naming each of `hosts` 127.0.0.1 (outbound calls go through the target policy, which lets
 * loopback through here). `settings` are environment settings on top of the engine's defaults.
 */
export async function anEngineService(options: {
  respond: http.RequestListener;
  peers?: readonly Peer[];
  hosts?: readonly string[];
  /** A function when a setting names a peer's port, known once the peers have started. */
  settings?: Record<string, string> | (() => Record<string, string>);
}): Promise<EngineService> {
  const target = http.createServer(options.respond);
  const peers = options.peers ?? [];
  await Promise.all([new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve)), ...peers.map((peer) => peer.start())]);
  const dns = await testDnsServer();
  for (const host of options.hosts ?? []) dns.set(host, { A: ['127.0.0.1'] });
  const config = testConfig({
    DNS_SERVERS: dns.server,
    CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
    MONITOR_LOCATIONS: 'local',
    CHECK_LOCATIONS: 'local',
    NOTIFY_RETRY_BASE_MS: '50',
    ...(typeof options.settings === 'function' ? options.settings() : options.settings),
  });
  const closePeers = () => Promise.all([new Promise((resolve) => target.close(resolve)), ...peers.map((peer) => peer.stop())]);
  const app = await startApplication(
    { ...config, databaseUrl: (await testDatabase()).url },
    { jobs: false, logger: pino({ level: 'silent' }) },
  ).catch(async (error: unknown) => {
    await closePeers();
    throw error;
  });
  return {
    app,
    targetUrl: `http://127.0.0.1:${(target.address() as AddressInfo).port}`,
    call: (method, path, token, body) => apiAt(app.url, method, path, { token, body }),
    async stop() {
      await app.stop();
      await closePeers();
    },
  };
}
