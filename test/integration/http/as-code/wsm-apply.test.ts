import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ApiClient } from '../../../../src/interfaces/cli/api-client';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitoredCustomer, aMonitorPackage } from '../../../support/monitoring-fixtures';
import { wsm } from '../../../support/wsm';

const GOLDEN = path.join(__dirname, '../../../golden/wsm');

/** The plan text against its golden file (UPDATE_GOLDEN=1 writes it). */
function expectGolden(name: string, text: string) {
  const file = path.join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN) writeFileSync(file, text);
  expect(text).to.equal(readFileSync(file, 'utf8'));
}

async function anOrganizationForCode() {
  const org = await anOrganization('wsm-apply');
  const pkg = await aMonitorPackage(org.token);
  const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
  return { token: org.token, customer };
}

/** A file of one customer: two tags, a page check carrying a tag, a DNS check, an SMTP check with credentials by reference. */
const fileFor = (customer: string, { interval = 5, withDns = true } = {}) => `version: 1
customer: ${customer}
tags:
  - name: Production
    color: "#EF4444"
  - name: Mail
    color: "#3B82F6"
monitors:
  - key: shop-home
    kind: website
    name: Shop home
    url: https://www.monitor-fixture.com/health
    checkInterval: ${interval}
    keyword: ok
    checkKeywordEnabled: true
    tags: [Production]
${
  withDns
    ? `  - key: shop-dmarc
    kind: dns
    name: Shop DMARC
    hostname: _dmarc.monitor-fixture.com
    recordType: TXT
    expectedValues: [v=DMARC1]
`
    : ''
}  - key: shop-mail
    kind: smtp
    name: Shop mail
    hostname: mail.monitor-fixture.com
    tlsMode: implicit
    credentials:
      username: monitor
      password: \${env:SHOP_MAIL_PASSWORD}
    tags: [Mail, Production]
`;

const ENV = { SHOP_MAIL_PASSWORD: 'hunter2-secret' };

async function monitorsOf(token: string) {
  const websites = await api('GET', '/api/websites', { token, query: { perPage: '200' } });
  const dns = await api('GET', '/api/monitors/dns', { token, query: { perPage: '200' } });
  const smtp = await api('GET', '/api/monitors/smtp', { token, query: { perPage: '200' } });
  return [...websites.body.items, ...dns.body.items, ...smtp.body.items] as Array<Record<string, any>>;
}

describe('wsm plan and apply', () => {
  it('plans the creates (golden), applies them, and a second apply does nothing', async () => {
    const { token, customer } = await anOrganizationForCode();
    const files = new Map([['wsm.yaml', fileFor(customer.publicId)]]);

    const plan = await wsm(['plan', '--detailed-exitcode'], { token, files, env: ENV });
    expect(plan.code, plan.stderr).to.equal(2);
    expectGolden('plan-create.txt', plan.stdout);
    expect(plan.stdout).not.to.include('hunter2');

    const applied = await wsm(['apply'], { token, files, env: ENV });
    expect(applied.code, applied.stdout + applied.stderr).to.equal(0);
    expect(applied.stdout).to.include('created monitor shop-mail (smtp)').and.include('Apply: 5 done, 0 failed.');
    expect(applied.stdout).not.to.include('hunter2');

    const monitors = await monitorsOf(token);
    expect(monitors.map((m) => m.key).sort()).to.deep.equal(['shop-dmarc', 'shop-home', 'shop-mail']);
    const mail = monitors.find((m) => m.key === 'shop-mail')!;
    expect(mail).to.include({ hasCredentials: true, customerPublicId: customer.publicId });
    expect(mail.tags.map((t: { name: string }) => t.name)).to.deep.equal(['Mail', 'Production']);

    const again = await wsm(['apply'], { token, files, env: ENV });
    expect(again).to.deep.include({ code: 0, stdout: 'No changes: nothing to apply.\n' });
    const clean = await wsm(['plan', '--detailed-exitcode'], { token, files, env: ENV });
    expect(clean).to.deep.include({ code: 0, stdout: 'No changes: the service matches wsm.yaml.\n' });
  });

  it('plans a change field by field (golden) and deletes only with --prune', async () => {
    const { token, customer } = await anOrganizationForCode();
    const files = new Map([['wsm.yaml', fileFor(customer.publicId)]]);
    expect((await wsm(['apply'], { token, files, env: ENV })).code).to.equal(0);

    files.set('wsm.yaml', fileFor(customer.publicId, { interval: 10, withDns: false }));
    const plan = await wsm(['plan', '--detailed-exitcode'], { token, files, env: ENV });
    expect(plan.code).to.equal(2);
    expectGolden('plan-update.txt', plan.stdout);

    const pruning = await wsm(['plan', '--prune'], { token, files, env: ENV });
    expectGolden('plan-prune.txt', pruning.stdout);

    expect((await wsm(['apply'], { token, files, env: ENV })).code).to.equal(0);
    expect((await monitorsOf(token)).map((m) => m.key).sort()).to.deep.equal(['shop-dmarc', 'shop-home', 'shop-mail']);
    const pruned = await wsm(['apply', '--prune'], { token, files, env: ENV });
    expect(pruned.stdout).to.include('deleted monitor shop-dmarc (dns)');
    const left = await monitorsOf(token);
    expect(left.map((m) => m.key).sort()).to.deep.equal(['shop-home', 'shop-mail']);
    expect(left.find((m) => m.key === 'shop-home')!.checkInterval).to.equal(10);
    expect((await wsm(['plan', '--prune', '--detailed-exitcode'], { token, files, env: ENV })).code).to.equal(0);
  });

  it('finishes an apply interrupted half way without creating anything twice', async () => {
    const { token, customer } = await anOrganizationForCode();
    const files = new Map([['wsm.yaml', fileFor(customer.publicId)]]);
    // The connection drops after the tags and the first monitor are written: the run stops there.
    let writes = 0;
    class Interrupted extends ApiClient {
      override request<T>(method: string, route: string, body?: unknown): Promise<T> {
        if (method !== 'GET' && ++writes > 4) throw new Error('connection reset (interrupted)');
        return super.request<T>(method, route, body);
      }
    }
    const cut = await wsm(['apply'], { token, files, env: ENV, client: (url, t) => new Interrupted(url, t) });
    expect(cut.code).to.equal(1);
    expect((await monitorsOf(token)).map((m) => m.key)).to.deep.equal(['shop-home']);

    const resumed = await wsm(['apply'], { token, files, env: ENV });
    expect(resumed.code, resumed.stdout).to.equal(0);
    expect(resumed.stdout).not.to.include('created monitor shop-home');
    const monitors = await monitorsOf(token);
    expect(monitors.map((m) => m.key).sort()).to.deep.equal(['shop-dmarc', 'shop-home', 'shop-mail']);
    expect((await wsm(['plan', '--detailed-exitcode'], { token, files, env: ENV })).code).to.equal(0);
  });

  it("shows the API's refusal per resource with the entry's file line, and applies the rest", async () => {
    const { token, customer } = await anOrganizationForCode();
    const text = fileFor(customer.publicId).replace('hostname: _dmarc.monitor-fixture.com', 'hostname: localhost');
    const files = new Map([['wsm.yaml', text]]);
    const applied = await wsm(['apply'], { token, files, env: ENV });
    expect(applied.code).to.equal(1);
    expect(applied.stdout).to.match(/^failed to create monitor shop-dmarc \(dns\) \(wsm\.yaml:17\): 400 invalidHostname: /m);
    expect(applied.stdout).to.include('created monitor shop-mail (smtp)').and.include('Apply: 4 done, 1 failed.');
  });

  it('refuses a missing secret before any call, naming the line and the field', async () => {
    const { token, customer } = await anOrganizationForCode();
    const files = new Map([['wsm.yaml', fileFor(customer.publicId)]]);
    const plan = await wsm(['plan'], { token, files });
    expect(plan.code).to.equal(1);
    expect(plan.stderr).to.equal('wsm: wsm.yaml:28: credentials: environment variable SHOP_MAIL_PASSWORD is not set\n');
    expect(await monitorsOf(token)).to.deep.equal([]);
  });
});
