import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitoredCustomer } from '../../../support/monitoring-fixtures';
import { wsm } from '../../../support/wsm';

const HOOK = 'https://hooks.receiver-fixture.com/alerts';

const channelsFile = (events: string) => `version: 1
notificationChannels:
  - key: ops/webhook
    name: Ops webhook
    type: webhook
    config:
      url: ${HOOK}
      headers:
        Authorization: \${env:OPS_HOOK_AUTH}
    events: [${events}]
  - key: ops/mail
    name: Ops mail
    type: email
    config:
      recipients: [ops@example.com]
`;

describe('wsm and notification channels', () => {
  it('creates channels by key, applies twice without change, plans a field change, prunes only with --prune', async () => {
    const org = await anOrganization('wsm-channels');
    const token = org.token;
    const env = { OPS_HOOK_AUTH: 'Bearer hook-s3cret' };
    const files = new Map([['wsm.yaml', channelsFile('incident.opened, incident.resolved')]]);
    const applied = await wsm(['apply'], { token, files, env });
    expect(applied.code, applied.stdout + applied.stderr).to.equal(0);
    expect(applied.stdout).to.include('created channel ops/webhook (webhook)').and.include('created channel ops/mail (email)');
    const listed = await api('GET', '/api/notification-channels', { token });
    const hook = listed.body.items.find((c: { key: string }) => c.key === 'ops/webhook');
    expect(hook.config.headers).to.deep.equal({ Authorization: 'Bearer hook-s3cret' });
    expect(await wsm(['apply'], { token, files, env })).to.deep.include({ code: 0, stdout: 'No changes: nothing to apply.\n' });

    files.set('wsm.yaml', channelsFile('incident.opened'));
    const plan = await wsm(['plan', '--detailed-exitcode'], { token, files, env });
    expect(plan).to.deep.include({
      code: 2,
      stdout:
        '~ update channel ops/webhook (webhook)  (wsm.yaml:3)\n    events: ["incident.opened","incident.resolved"] -> ["incident.opened"]\n\n' +
        'Plan: 0 to create, 1 to change, 0 to delete.\n',
    });
    expect((await wsm(['apply'], { token, files, env })).code).to.equal(0);

    files.set('wsm.yaml', 'version: 1\n');
    expect((await wsm(['plan', '--detailed-exitcode'], { token, files, env })).code).to.equal(0);
    const pruned = await wsm(['apply', '--prune'], { token, files, env });
    expect(pruned.stdout).to.include('deleted channel ops/webhook (webhook)').and.include('deleted channel ops/mail (email)');
    expect((await api('GET', '/api/notification-channels', { token })).body.items).to.deep.equal([]);
  });

  it("exports channels (secret headers by reference, a customer's with its customer) and plans no change with the references set", async () => {
    const org = await anOrganization('wsm-channels-export');
    const token = org.token;
    const customer = await aMonitoredCustomer(token);
    await api('POST', '/api/notification-channels', {
      token,
      body: { name: 'Hook', type: 'webhook', config: { url: HOOK, headers: { 'X-Api-Key': 'k3y' } } },
    });
    await api('POST', '/api/notification-channels', {
      token,
      body: {
        key: 'cust-mail',
        name: 'Customer mail',
        type: 'email',
        customerId: customer.publicId,
        config: { recipients: ['a@example.com'] },
      },
    });
    const files = new Map<string, string>();
    const exported = await wsm(['export', '--file', 'org.yaml'], { token, files });
    const text = files.get('org.yaml')!;
    expect(text).not.to.include('k3y');
    expect(text).to.include('key: cust-mail').and.include(`customer: ${customer.publicId}`);
    const variable = /\$\{env:(WSM_[A-Z0-9_]+_HEADER_X_API_KEY)\}/.exec(text)![1]!;
    expect(exported.stderr).to.include(variable);
    const plan = await wsm(['plan', '--file', 'org.yaml', '--detailed-exitcode'], { token, files, env: { [variable]: 'k3y' } });
    expect(plan).to.deep.include({ code: 0, stdout: 'No changes: the service matches org.yaml.\n' });
  });

  it('refuses a channel key twice in one organization through the API (409 channelKeyTaken)', async () => {
    const org = await anOrganization('wsm-channel-keys');
    const body = { key: 'ops', name: 'Ops', type: 'email', config: { recipients: ['ops@example.com'] } };
    expect((await api('POST', '/api/notification-channels', { token: org.token, body })).status).to.equal(201);
    const again = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { ...body, config: { recipients: ['other@example.com'] } },
    });
    expectError(again, 409, 'channelKeyTaken');
    expectError(
      await api('POST', '/api/notification-channels', { token: org.token, body: { ...body, key: 'no spaces' } }),
      400,
      'validationFailed',
    );
  });
});
