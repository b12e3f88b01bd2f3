import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { api } from './http-client';
import { testDnsServer } from './test-server';

/** An active custom domain of `kind` for the organization of `token`: added, its TXT record published, activated. */
export async function anActiveDomain(token: string, kind: 'whiteLabel' | 'statusPage', statusPageId?: string): Promise<string> {
  const hostname = `console-${randomBytes(4).toString('hex')}.brand-test.com`;
  const added = await api('POST', '/api/custom-domains', { token, body: { hostname, kind, ...(statusPageId ? { statusPageId } : {}) } });
  expect(added.status, JSON.stringify(added.body)).to.equal(201);
  (await testDnsServer()).set(added.body.verification.recordName, { TXT: [added.body.verification.recordValue] });
  expect((await api('POST', `/api/custom-domains/${added.body.id}/activate`, { token })).status).to.equal(200);
  return hostname;
}
