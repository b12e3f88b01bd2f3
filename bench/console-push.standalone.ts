/**
 * `npx tsx bench/console-push.standalone.ts`: the console push scenario (scenarios/console-push.ts)
 * run on its own, once, until the console bench calls it: the service in this process on the test
 * database with its notification worker (loopback receivers admitted), Debian's Chromium, one
 * organization with one website. Prints the figures and goals as JSON.
 */
import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { aConsoleService, launchConsoleBrowser } from '../test/support/console-browser';
import { apiAt } from '../test/support/http-client';
import { uniqueEmail } from '../test/support/builders';
import { stopTestInfrastructure } from '../test/support/test-server';
import { measureConsolePush } from './scenarios/console-push';
import { enableLinearRegExp } from '../src/infrastructure/protocols/shared/linear-regexp';

const progress = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);

async function main(): Promise<void> {
  enableLinearRegExp();
  const target = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  progress('starting the service');
  const app = await aConsoleService({ notificationWorker: true });
  progress('service up');
  const browser = await launchConsoleBrowser();
  try {
    const admin = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Bench Admin', email: uniqueEmail('bench-push'), password: 'a long passphrase', organizationName: 'Bench push' },
    });
    const token = admin.body.token as string;
    const customer = (await apiAt(app.url, 'POST', '/api/customers', { token, body: { name: 'Bench Co', email: 'ops@bench.example' } }))
      .body.customer;
    const site = await apiAt(app.url, 'POST', '/api/websites', {
      token,
      body: { customerId: customer.id, name: 'Bench site', url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/` },
    });
    progress('measuring');
    const result = await measureConsolePush({
      browser,
      url: app.url,
      token,
      userId: admin.body.user.id as string,
      monitorId: site.body.publicId as string,
      runs: Number(process.env.BENCH_PUSH_RUNS ?? 5),
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await browser.close();
    await app.stop();
    target.close();
    await stopTestInfrastructure();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
    process.exit(1);
  },
);
