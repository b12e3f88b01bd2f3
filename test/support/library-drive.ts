/**
 * TEST SUPPORT ONLY: drives a website monitor from sign-up to a recorded check through the library
 * entry alone (src/index.ts), in a process of its own so that what it loads can be inspected: run
 * as a script by test/integration/persistence/library.test.ts, it prints one JSON line. Loaded by
 * mocha as a spec file it does nothing.
 */
import pino from 'pino';
import {
  AuthenticateCaller, CreateCustomer, CreateMonitor, GetCheckHistory, loadConfig, openMonitoringLibrary, SignUp, TriggerCheck,
} from '../../src/index';

export const LIBRARY_LOCATION = 'lib-test';

export interface LibraryDrive {
  websiteId: string;
  triggered: number;
  history: Array<{ location: string; status: string }>;
  /** Modules of Express (or any HTTP framework of the host) loaded by the whole run. */
  hostModules: string[];
}

async function drive(): Promise<LibraryDrive> {
  const config = loadConfig({
    DATABASE_URL: process.env.LIBRARY_DATABASE_URL, DATA_DIR: process.env.LIBRARY_DATA_DIR, LOG_LEVEL: 'silent',
    CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8', MONITOR_LOCATIONS: LIBRARY_LOCATION, CHECK_LOCATIONS: LIBRARY_LOCATION,
    CREDENTIALS_KEY: process.env.LIBRARY_CREDENTIALS_KEY, AGENT_KEY_ENCRYPTION_KEY: process.env.LIBRARY_CREDENTIALS_KEY,
  });
  const library = await openMonitoringLibrary(config, pino({ level: 'silent' }));
  try {
    const { token } = await library.run(() => library.get(SignUp).execute({
      name: 'Library Owner', email: 'owner@library.example', password: 'a long password', organizationName: 'Library Org',
    }));
    const { actor } = await library.run(() => library.get(AuthenticateCaller).execute(token));
    const customer = await library.run(() => library.get(CreateCustomer).execute(actor, { name: 'Shop', email: 'ops@shop.example' }));
    const website = await library.run(() => library.get(CreateMonitor).execute(actor, {
      kind: 'website', input: { customerId: customer.customer.id, url: process.env.LIBRARY_TARGET_URL, locations: [LIBRARY_LOCATION] },
    }));
    library.startCheckWorker();
    const { triggered } = await library.run(() => library.get(TriggerCheck).execute(actor, website.publicId));
    const deadline = Date.now() + 30_000;
    let history = await library.run(() => library.get(GetCheckHistory).execute(actor, { websiteId: website.publicId, page: 1, perPage: 10 }));
    while (history.items.length === 0) {
      if (Date.now() > deadline) throw new Error('no check recorded within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
      history = await library.run(() => library.get(GetCheckHistory).execute(actor, { websiteId: website.publicId, page: 1, perPage: 10 }));
    }
    return {
      websiteId: website.publicId, triggered,
      history: history.items.map((item) => ({ location: item.location, status: item.status })),
      hostModules: Object.keys(require.cache).filter((path) => /\/node_modules\/(express|router|body-parser|cookie-parser)\//.test(path)),
    };
  } finally {
    await library.close();
  }
}

if (require.main === module) {
  drive().then(
    (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
