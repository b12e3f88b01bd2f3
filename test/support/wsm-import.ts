import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { anOrganization } from './builders';
import { aMonitoredCustomer, aMonitorPackage } from './monitoring-fixtures';
import { wsm, type WsmFiles } from './wsm';

/** wsm import's tests: a loopback source, an organization with a customer, and the import-apply-import-plan round. */

export type Handler = (req: IncomingMessage, body: string) => { status?: number; json: unknown };

export async function aSource(handler: Handler): Promise<{ url: string; calls: string[]; close: () => Promise<void> }> {
  const calls: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      calls.push(`${req.method} ${req.url}`);
      const { status = 200, json } = handler(req, body);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export async function anOrganizationForImport(name: string) {
  const org = await anOrganization(name);
  const pkg = await aMonitorPackage(org.token);
  const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
  return { token: org.token, customer: customer.publicId as string };
}

/** Imports, applies, imports again (same file), and plans no change. */
export async function importApplyTwice(argv: string[], token: string, env: Record<string, string>) {
  const files: WsmFiles = new Map();
  const first = await wsm(['import', ...argv, '--out', 'wsm.yaml'], { token, files, env });
  expect(first.code, first.stderr).to.equal(0);
  const text = files.get('wsm.yaml')!;
  const applied = await wsm(['apply'], { token, files, env });
  expect(applied.code, applied.stdout + applied.stderr).to.equal(0);
  const again = await wsm(['import', ...argv, '--out', 'wsm.yaml'], { token, files, env });
  expect(again.code).to.equal(0);
  expect(files.get('wsm.yaml')).to.equal(text);
  const plan = await wsm(['plan', '--detailed-exitcode'], { token, files, env });
  expect(plan, plan.stdout + plan.stderr).to.deep.include({ code: 0, stdout: 'No changes: the service matches wsm.yaml.\n' });
  return { text, stderr: first.stderr, applied: applied.stdout };
}
