import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitoredCustomer, PUBLIC_URL } from '../../../support/monitoring-fixtures';
import { wsm } from '../../../support/wsm';

/** A file with a custom field, a website, a weekly window over it and a status page showing it, all by key. */
const linkedFile = (customer: string, rrule: string) => `version: 1
customFields:
  - fieldKey: contract_id
    name: Contract
    fieldType: text
monitors:
  - key: shop/home
    kind: website
    customer: ${customer}
    name: Shop
    url: ${PUBLIC_URL}
maintenanceWindows:
  - key: shop/patch-sunday
    title: Patch Sunday
    startTime: 2030-01-06T02:00:00+01:00
    endTime: 2030-01-06T03:00:00+01:00
    timezone: Europe/Berlin
    rrule: ${rrule}
    targets:
      - monitor: shop/home
statusPages:
  - slug: wsm-linked-${customer.slice(0, 8)}
    title: Shop status
    customer: ${customer}
    password: \${env:PAGE_PASSWORD}
    groups:
      - name: Web
        components:
          - monitor: shop/home
            name: The shop
`;

describe('wsm and custom fields, maintenance windows and status pages', () => {
  it('creates them naming the monitor by key, applies twice without change, plans a field change, round-trips export, prunes', async () => {
    const org = await anOrganization('wsm-linked');
    const token = org.token;
    const customer = (await aMonitoredCustomer(token)).publicId as string;
    const env = { PAGE_PASSWORD: 'visitors-only' };
    const files = new Map([['wsm.yaml', linkedFile(customer, 'FREQ=WEEKLY;BYDAY=SU')]]);

    const applied = await wsm(['apply'], { token, files, env });
    expect(applied.code, applied.stdout + applied.stderr).to.equal(0);
    expect(applied.stdout).to.include('created custom field contract_id').and.include('created maintenance window shop/patch-sunday');
    const monitor = (await api('GET', '/api/websites', { token })).body.items.find((w: { key: string }) => w.key === 'shop/home');
    const windows = (await api('GET', '/api/maintenance-windows', { token })).body.items;
    expect(windows).to.have.length(1);
    expect(windows[0]).to.deep.include({ key: 'shop/patch-sunday', startTime: '2030-01-06T01:00:00.000Z', timezone: 'Europe/Berlin' });
    expect(windows[0].targets).to.deep.equal([{ type: 'monitor', id: monitor.publicId }]);
    const pages = (await api('GET', '/api/status-pages', { token })).body.items;
    expect(pages).to.have.length(1);
    expect(pages[0]).to.include({ passwordProtected: true });
    expect(pages[0].groups[0].components[0]).to.include({ type: 'monitor', id: monitor.publicId, name: 'The shop' });
    expect(await wsm(['apply'], { token, files, env })).to.deep.include({ code: 0, stdout: 'No changes: nothing to apply.\n' });

    files.set('wsm.yaml', linkedFile(customer, 'FREQ=WEEKLY;BYDAY=SA'));
    const plan = await wsm(['plan', '--detailed-exitcode'], { token, files, env });
    expect(plan).to.deep.include({
      code: 2,
      stdout:
        '~ update maintenance window shop/patch-sunday  (wsm.yaml:13)\n    rrule: "FREQ=WEEKLY;BYDAY=SU" -> "FREQ=WEEKLY;BYDAY=SA"\n\n' +
        'Plan: 0 to create, 1 to change, 0 to delete.\n',
    });
    expect((await wsm(['apply'], { token, files, env })).code).to.equal(0);

    const exported = await wsm(['export', '--file', 'out.yaml'], { token, files });
    expect(exported.code, exported.stderr).to.equal(0);
    const text = files.get('out.yaml')!;
    expect(text).to.include('monitor: shop/home').and.include('fieldKey: contract_id').and.not.include('visitors-only');
    expect(exported.stderr).to.match(/WSM_STATUS_PAGE_WSM_LINKED_[0-9A-F]+_PASSWORD/);
    const variable = /(WSM_STATUS_PAGE_\w+_PASSWORD)/.exec(exported.stderr)![1]!;
    const replanned = await wsm(['plan', '--file', 'out.yaml', '--detailed-exitcode'], { token, files, env: { [variable]: 'x' } });
    expect(replanned, replanned.stdout).to.deep.include({ code: 0 });

    files.set('wsm.yaml', 'version: 1\n');
    const pruned = await wsm(['apply', '--prune'], { token, files });
    expect(pruned.code, pruned.stdout).to.equal(0);
    expect(pruned.stdout).to.include('deleted status page').and.include('deleted maintenance window shop/patch-sunday');
    expect((await api('GET', '/api/maintenance-windows', { token })).body.items).to.deep.equal([]);
    expect((await api('GET', '/api/status-pages', { token })).body.items).to.deep.equal([]);
    expect((await api('GET', '/api/custom-fields', { token })).body.items).to.deep.equal([]);
  });

  it('refuses custom fields in a file of one customer, and a window naming a monitor nobody has, at its line', async () => {
    const org = await anOrganization('wsm-linked-refusals');
    const token = org.token;
    const customer = (await aMonitoredCustomer(token)).publicId as string;
    const files = new Map([
      ['c.yaml', `version: 1\ncustomer: ${customer}\ncustomFields:\n  - fieldKey: x\n    name: X\n    fieldType: text\n`],
    ]);
    const refused = await wsm(['plan', '--file', 'c.yaml'], { token, files });
    expect(refused).to.deep.include({ code: 1 });
    expect(refused.stderr).to.include('c.yaml:3: customFields: custom fields belong to the organization');

    files.set(
      'w.yaml',
      'version: 1\nmaintenanceWindows:\n  - key: w\n    title: W\n    startTime: 2030-01-01T00:00:00Z\n    endTime: 2030-01-01T01:00:00Z\n    targets:\n      - monitor: nobody/has-this\n',
    );
    const failed = await wsm(['apply', '--file', 'w.yaml'], { token, files });
    expect(failed.code).to.equal(1);
    expect(failed.stdout).to.include('failed to create maintenance window w (w.yaml:3): no monitor with key "nobody/has-this"');
  });
});
