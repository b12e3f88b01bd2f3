/**
 * `npm run screenshots`: the README's pictures of the console, taken from a running service.
 *
 * Starts the service in this process on an embedded PostgreSQL in a temporary directory (a check
 * worker on the loopback location, as `npm start` runs it), a loopback web server to watch, then
 * through the public API: an organization with three customers and a dozen website monitors, one
 * of them failing until its incident opens. Headless Chromium (Debian's) signs in through the
 * console and photographs the overview and one monitor's page into docs/images/.
 */
import 'reflect-metadata';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/main/config';
import { startApplication, type RunningApplication } from '../src/main/application';
import { launchConsoleBrowser } from '../test/support/chromium';

const OUT = path.resolve(__dirname, '../docs/images');
const PASSWORD = 'a long screenshot passphrase';
const say = (line: string) => process.stdout.write(`${line}\n`);

/** A web server with some slow pages and one that fails. */
function aTarget(): http.Server {
  return http.createServer((req, res) => {
    const failing = req.url?.startsWith('/checkout');
    const delay = 20 + (((req.url?.length ?? 0) * 7) % 160);
    setTimeout(() => {
      res.statusCode = failing ? 503 : 200;
      res.end(failing ? 'maintenance went wrong' : '<html><body>ok</body></html>');
    }, delay);
  });
}

async function api<T>(app: RunningApplication, token: string | null, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${app.url}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as T;
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

async function main(): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-screenshots-'));
  const target = aTarget();
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const site = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  say('Starting the service on an embedded PostgreSQL…');
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    CHECK_LOCATIONS: 'local',
    MONITOR_LOCATIONS: 'local',
    CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
  });
  const app = await startApplication(config, { jobs: false, logger: pino({ level: 'silent' }) });
  const browser = await launchConsoleBrowser();
  try {
    const email = `operator-${Date.now()}@agency.example`;
    const { token } = await api<{ token: string }>(app, null, 'POST', '/api/auth/sign-up/email', {
      name: 'Grace Operator',
      email,
      password: PASSWORD,
      organizationName: 'Northwind Agency',
    });
    say('Adding customers and monitors…');
    const monitors: Array<{ publicId: string; name: string }> = [];
    const plan: Array<[string, string[]]> = [
      ['Fabrikam Outdoor', ['Shop', 'Checkout API', 'Blog', 'Status API']],
      ['Contoso Dental', ['Booking', 'Patient portal', 'Website']],
      ['Tailspin Travel', ['Search', 'Payments', 'Partner API', 'Marketing site', 'Careers']],
    ];
    for (const [customerName, names] of plan) {
      const { customer } = await api<{ customer: { id: number } }>(app, token, 'POST', '/api/customers', {
        name: customerName,
        email: `ops@${customerName.split(' ')[0]!.toLowerCase()}.example`,
        allowSelfService: true,
      });
      for (const name of names) {
        const slug = name.toLowerCase().replaceAll(' ', '-');
        const url = name === 'Checkout API' ? `${site}/checkout` : `${site}/${slug}`;
        monitors.push(await api(app, token, 'POST', '/api/websites', { customerId: customer.id, name, url }));
      }
    }
    say('Checking every monitor a few times (the checkout fails until its incident opens)…');
    for (let round = 0; round < 4; round += 1) {
      await Promise.all(monitors.map((m) => api(app, token, 'POST', `/api/websites/${m.publicId}/trigger-check`)));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    }

    const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
    await page.goto(`${app.url}/app/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByText('Checkout API').first().waitFor();
    await page.waitForTimeout(1_500);
    await fs.mkdir(OUT, { recursive: true });
    await page.screenshot({ path: path.join(OUT, 'console-overview.png') });
    say(`Wrote ${path.relative(process.cwd(), path.join(OUT, 'console-overview.png'))}`);

    const shop = monitors.find((m) => m.name === 'Shop')!;
    await page.goto(`${app.url}/app/monitors/website/${shop.publicId}`);
    await page.getByRole('heading', { name: 'Shop' }).waitFor();
    await page.getByRole('button', { name: 'Hour' }).click();
    await page.waitForTimeout(1_500);
    await page.screenshot({ path: path.join(OUT, 'console-monitor.png') });
    say(`Wrote ${path.relative(process.cwd(), path.join(OUT, 'console-monitor.png'))}`);
  } finally {
    await browser.close();
    await app.stop();
    await new Promise((resolve) => target.close(resolve));
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
