import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMember } from '../../../support/identity-fixtures';
import { aMonitoredCustomer, PUBLIC_URL } from '../../../support/monitoring-fixtures';
import { wsm } from '../../../support/wsm';
import { testServer } from '../../../support/test-server';

const fileFor = (customer: string) =>
  `version: 1\ncustomer: ${customer}\nmonitors:\n  - key: home\n    kind: website\n    url: ${PUBLIC_URL}\n`;

describe('wsm asks the service what the token may do', () => {
  before(async function () {
    this.timeout(120_000);
    await testServer();
  });

  it('whoami prints the role and the acts the service answers for it', async () => {
    const org = await anOrganization('wsm-roles');
    const responder = await aMember(org, 'responder');
    const run = await wsm(['whoami'], { token: responder.token });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.match(new RegExp(`^${responder.email.replace(/[.]/g, '\\.')} · responder · the organization\n`));
    expect(run.stdout)
      .to.include('  incident: acknowledge, postUpdate\n')
      .and.include('  monitor: check\n')
      .and.include('  user: (nothing)\n');
    const session = await api('GET', '/api/auth/get-session', { token: responder.token });
    expect(session.body.can.monitor).to.deep.include({ check: true, update: false, delete: false });
  });

  it("refuses an apply whole, before any write, when the token's role may not make a change", async () => {
    const org = await anOrganization('wsm-roles');
    const readonly = await aMember(org, 'readonly');
    const customer = await aMonitoredCustomer(org.token);
    const files = new Map([['wsm.yaml', fileFor(customer.publicId)]]);
    const applied = await wsm(['apply'], { token: readonly.token, files });
    expect(applied.code).to.equal(1);
    expect(applied.stderr).to.equal("wsm: the token's role may not make these changes (nothing was applied): create monitor home\n");
    expect(applied.stdout).to.equal('');
    const left = await api('GET', '/api/websites', { token: org.token });
    expect(left.body.total).to.equal(0);

    const editor = await aMember(org, 'editor');
    const written = await wsm(['apply'], { token: editor.token, files });
    expect(written.code, written.stdout + written.stderr).to.equal(0);
  });
});
