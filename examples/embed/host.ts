/**
 * A host without Express: the monitoring library embedded in a script. It signs up, creates a
 * customer and a website monitor, runs the check worker, and reads the monitor's incidents, all
 * through the library's use cases (src/index.ts). The monitored site is a loopback server this
 * script starts itself and that answers 503, so the first check opens an incident.
 *
 *   npm run example:embed                       (an embedded PostgreSQL under EMBED_DATA_DIR)
 *   DATABASE_URL=postgres://... npm run example:embed
 *
 * It prints one JSON line: the website's id, its check history and its incidents, and the HTTP
 * framework modules the whole run loaded (none). docs/embedding.md explains each step.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import {
  AuthenticateCaller,
  CreateCustomer,
  CreateMonitor,
  GetCheckHistory,
  ListIncidents,
  loadConfig,
  openMonitoringLibrary,
  SignUp,
  TriggerCheck,
} from '../../src/index';

/** The location this process checks from (a library host names its own). */
export const EMBED_LOCATION = 'embedded';

export interface EmbedRun {
  websiteId: string;
  triggered: number;
  history: Array<{ location: string; status: string }>;
  incidents: Array<{ title: string; status: string; origin: string }>;
  /** Modules of Express (or any HTTP framework of a host) the whole run loaded. */
  hostModules: string[];
}

/** A site that is down: every request answers 503. */
function aSiteThatIsDown(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => res.writeHead(503).end('down for maintenance'));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (let value = await read(); ; value = await read()) {
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function run(): Promise<EmbedRun> {
  // 1. Configuration, as the service reads it (every setting has a default; see docs/configuration.md).
  const config = loadConfig({
    DATABASE_URL: process.env.DATABASE_URL,
    DATA_DIR: process.env.EMBED_DATA_DIR ?? path.join(os.tmpdir(), 'monitoring-embed'),
    LOG_LEVEL: 'silent',
    CREDENTIALS_KEY: process.env.CREDENTIALS_KEY,
    AGENT_KEY_ENCRYPTION_KEY: process.env.CREDENTIALS_KEY,
    // The monitored site is on loopback, which the target policy refuses unless allowed.
    CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
    MONITOR_LOCATIONS: EMBED_LOCATION,
    CHECK_LOCATIONS: EMBED_LOCATION,
  });
  const site = await aSiteThatIsDown();
  // 2. The library: PostgreSQL (embedded when no DATABASE_URL), migrations, every context's use cases.
  const library = await openMonitoringLibrary(config, pino({ level: 'silent' }));
  try {
    // 3. An actor: sign up, then authenticate the session token as a host would for each caller.
    const { token } = await library.run(() =>
      library.get(SignUp).execute({
        name: 'Embedded Owner',
        email: `owner-${Date.now()}@embed.example`,
        password: 'a long password',
        organizationName: 'Embedded Org',
      }),
    );
    const { actor } = await library.run(() => library.get(AuthenticateCaller).execute(token));
    // 4. A customer and a website monitor that alerts on its first failed check.
    const { customer } = await library.run(() => library.get(CreateCustomer).execute(actor, { name: 'Shop', email: 'ops@shop.example' }));
    const website = await library.run(() =>
      library.get(CreateMonitor).execute(actor, {
        kind: 'website',
        input: { customerId: customer.id, url: site.url, locations: [EMBED_LOCATION], alertConsecutiveChecks: 1 },
      }),
    );
    // 5. The check worker of this process, and a check now rather than at the monitor's interval.
    library.startCheckWorker();
    const { triggered } = await library.run(() => library.get(TriggerCheck).execute(actor, website.publicId));
    const history = await until(
      'a recorded check',
      () => library.run(() => library.get(GetCheckHistory).execute(actor, { websiteId: website.publicId, page: 1, perPage: 10 })),
      (page) => page.items.length > 0,
    );
    // 6. The incident the failed check opened, read as any caller of the organization would.
    const incidents = await until(
      'an incident',
      () => library.run(() => library.get(ListIncidents).execute(actor, { page: 1, perPage: 10, monitorId: website.id })),
      (page) => page.items.length > 0,
    );
    return {
      websiteId: website.publicId,
      triggered,
      history: history.items.map((item) => ({ location: item.location, status: item.status })),
      incidents: incidents.items.map((incident) => ({ title: incident.title, status: incident.status, origin: incident.origin })),
      hostModules: Object.keys(require.cache).filter((file) => /\/node_modules\/(express|router|body-parser|cookie-parser)\//.test(file)),
    };
  } finally {
    await library.close();
    await site.close();
  }
}

if (require.main === module) {
  run().then(
    (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
