import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitoredCustomer, aMonitorPackage } from '../../../support/monitoring-fixtures';
import { wsm } from '../../../support/wsm';

const DOC = readFileSync(path.join(__dirname, '../../../../docs/as-code.md'), 'utf8');
const EXAMPLE = DOC.slice(DOC.indexOf('## A complete example'));
/** The n-th fenced block of a language in the example section. */
const block = (language: string, n = 0) => [...EXAMPLE.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))][n]![1]!;
const DOC_CUSTOMER = '7d3f1e2a-5b6c-4d8e-9f01-23456789abcd';

describe('docs/as-code.md: the complete example', () => {
  it('plans as the page shows, applies, and plans no change after', async () => {
    const org = await anOrganization('wsm-docs');
    const pkg = await aMonitorPackage(org.token);
    const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
    const token = await (async () => {
      const minted = await api('POST', '/api/organization/tokens', { token: org.token, body: { name: 'wsm' } });
      return minted.body.token as string;
    })();
    const files = new Map([['wsm.yaml', block('yaml').replace(DOC_CUSTOMER, customer.publicId)]]);
    const env = { SHOP_MAIL_PASSWORD: 'from-the-vault' };

    const plan = await wsm(['plan', '--detailed-exitcode'], { token, files, env });
    expect(plan.code, plan.stderr).to.equal(2);
    expect(plan.stdout).to.equal(block('text'));

    const applied = await wsm(['apply'], { token, files, env });
    expect(applied.code, applied.stdout).to.equal(0);
    expect(applied.stdout).to.include('Apply: 6 done, 0 failed.');
    const again = await wsm(['plan', '--detailed-exitcode'], { token, files, env });
    expect(again).to.deep.include({ code: 0, stdout: 'No changes: the service matches wsm.yaml.\n' });

    files.set('wsm.yaml', files.get('wsm.yaml')!.replace('    checkInterval: 5\n', '    checkInterval: 10\n'));
    const changed = await wsm(['plan'], { token, files, env });
    expect(changed.stdout.match(/checkInterval: 5 -> 10/g)).to.have.length(1);
  });
});
