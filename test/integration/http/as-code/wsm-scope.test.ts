import { expect } from 'chai';
import { ApiClient } from '../../../../src/interfaces/cli/api-client';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerToken } from '../../../support/identity-fixtures';
import { aMonitoredCustomer, aMonitorPackage, PUBLIC_URL } from '../../../support/monitoring-fixtures';
import { wsm } from '../../../support/wsm';

async function twoCustomers() {
  const org = await anOrganization('wsm-scope');
  const pkg = await aMonitorPackage(org.token);
  const [mine, theirs] = [
    await aMonitoredCustomer(org.token, { packageId: pkg.id }),
    await aMonitoredCustomer(org.token, { packageId: pkg.id }),
  ];
  const customerToken = await aCustomerToken(org.token, mine.id);
  // The customer's own (self-service) monitor, and the other customer's, made by the organization.
  const own = await api('POST', '/api/websites', { token: customerToken, body: { url: PUBLIC_URL, key: 'mine-home' } });
  const other = await api('POST', '/api/websites', {
    token: org.token,
    body: { customerId: theirs.id, url: PUBLIC_URL, key: 'theirs-home' },
  });
  expect([own.status, other.status], JSON.stringify([own.body, other.body])).to.deep.equal([201, 201]);
  return { org, mine, theirs, customerToken };
}

describe('wsm with a customer token', () => {
  it("exports, plans and prunes only the token's customer", async () => {
    const { org, mine, theirs, customerToken } = await twoCustomers();
    const files = new Map<string, string>();
    expect((await wsm(['export', '--file', 'mine.yaml'], { token: customerToken, files })).code).to.equal(0);
    const text = files.get('mine.yaml')!;
    expect(text).to.include('key: mine-home').and.include(mine.publicId).and.not.include('theirs-home').and.not.include(theirs.publicId);

    files.set('empty.yaml', 'version: 1\nmonitors: []\n');
    const prune = await wsm(['plan', '--prune', '--file', 'empty.yaml'], { token: customerToken, files });
    expect(prune.stdout).to.equal('- delete monitor mine-home (website)\n\nPlan: 0 to create, 0 to change, 1 to delete.\n');
    expect((await wsm(['apply', '--prune', '--file', 'empty.yaml'], { token: customerToken, files })).code).to.equal(0);

    const left = await api('GET', '/api/websites', { token: org.token });
    expect(left.body.items.map((w: { key: string }) => w.key)).to.deep.equal(['theirs-home']);
  });

  it("answers another customer's monitor as the API does, per resource with its line", async () => {
    const { theirs, customerToken } = await twoCustomers();
    const files = new Map([
      ['wsm.yaml', `version: 1\nmonitors:\n  - key: sneaky\n    kind: website\n    customer: ${theirs.publicId}\n    url: ${PUBLIC_URL}\n`],
    ]);
    const applied = await wsm(['apply'], { token: customerToken, files });
    expect(applied.code).to.equal(1);
    expect(applied.stdout).to.match(/^failed to create monitor sneaky \(website\) \(wsm\.yaml:3\): 400 invalidCustomer: /m);
  });
});

describe('wsm errors from the service', () => {
  it('exits 1 with the API refusal when the token does not authenticate (also with --detailed-exitcode)', async () => {
    const files = new Map([['wsm.yaml', 'version: 1\n']]);
    const plan = await wsm(['plan', '--detailed-exitcode'], { token: 'wsm_not-a-token', files });
    expect(plan.code).to.equal(1);
    expect(plan.stderr).to.match(/^wsm: the service refused: 401 /);
  });
});

describe('wsm refuses a bad file before any write', () => {
  // The service is read while the file is checked: a refused file may cost list calls, never a write.
  const methods: string[] = [];
  class ReadsOnly extends ApiClient {
    override request<T>(method: string, route: string, body?: unknown): Promise<T> {
      methods.push(method);
      if (method !== 'GET') throw new Error(`no write may be made (${method} ${route})`);
      return super.request<T>(method, route, body);
    }
  }
  afterEach(() => expect(methods.filter((m) => m !== 'GET')).to.deep.equal([]));
  const refused = async (text: string, command = 'plan') => {
    const files = new Map([['wsm.yaml', text]]);
    return wsm([command], { token: 'wsm_unused', files, client: (u, t) => new ReadsOnly(u, t) });
  };

  it('reports the file, not the calls it started, and writes nothing when apply is given a large bad file', async () => {
    // 300 KB and more, checked while the service is read.
    const entries = Array.from({ length: 3000 }, (_, n) => `  - key: site-${n}\n    kind: website\n    url: https://x.test/${n}\n`);
    entries[2500] = '  - key: site-2500\n    kind: website\n    url: https://x.test/\n    checkInterval: "five"\n';
    const text = `version: 1\nmonitors:\n${entries.join('')}`;
    const padded = `${'# padding\n'.repeat(30_000)}${text}`;
    expect(padded.length).to.be.at.least(256 * 1024);
    const applied = await refused(padded, 'apply');
    expect(applied.code).to.equal(1);
    expect(applied.stderr).to.equal(
      `wsm: wsm.yaml:${30_000 + 2 + 3 * 2500 + 4}: monitors[2500].checkInterval: Invalid input: expected number, received string\n`,
    );
  });

  it('names the file, the line and the field of a wrong value or an unknown field', async () => {
    const wrong = await refused(
      'version: 1\nmonitors:\n  - key: a\n    kind: website\n    url: https://x.test/\n    checkInterval: "five"\n',
    );
    expect(wrong.code).to.equal(1);
    expect(wrong.stderr).to.equal('wsm: wsm.yaml:6: monitors[0].checkInterval: Invalid input: expected number, received string\n');
    const unknown = await refused(
      'version: 1\nmonitors:\n  - key: a\n    kind: tcp\n    hostname: db.test\n    port: 5432\n    colour: red\n',
    );
    expect(unknown.stderr).to.equal('wsm: wsm.yaml:7: monitors[0].colour: Unrecognized key: "colour"\n');
    const kind = await refused('version: 1\nmonitors:\n  - key: a\n    kind: gopher\n');
    expect(kind.stderr).to.match(/^wsm: wsm\.yaml:4: monitors\[0\]\.kind: /);
  });

  it('names the line of a YAML error and of a key named twice', async () => {
    const broken = await refused('version: 1\nmonitors:\n  - key: a\n   kind: [website\n');
    expect(broken.code).to.equal(1);
    expect(broken.stderr).to.match(/^wsm: wsm\.yaml:4: /);
    const twice = await refused(
      'version: 1\nmonitors:\n  - key: a\n    kind: icmp\n    hostname: h.test\n  - key: a\n    kind: icmp\n    hostname: g.test\n',
    );
    expect(twice.stderr).to.equal('wsm: wsm.yaml:6: key: monitor a is named again (first at wsm.yaml:3)\n');
  });
});

describe('monitor keys through the API', () => {
  it('stores a key, refuses it twice in one organization (any kind), allows it in another, and clears it', async () => {
    const { org, mine } = await twoCustomers();
    const token = org.token;
    const created = await api('POST', '/api/monitors/icmp', {
      token,
      body: { customerId: mine.id, hostname: 'www.monitor-fixture.com', key: 'edge/ping-1' },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.key).to.equal('edge/ping-1');
    expectError(
      await api('POST', '/api/websites', { token, body: { customerId: mine.id, url: PUBLIC_URL, key: 'edge/ping-1' } }),
      409,
      'monitorKeyTaken',
    );
    expectError(
      await api('PATCH', '/api/websites/' + (await api('GET', '/api/websites', { token })).body.items[0].publicId, {
        token,
        body: { key: 'edge/ping-1' },
      }),
      409,
      'monitorKeyTaken',
    );
    expectError(
      await api('POST', '/api/monitors/icmp', {
        token,
        body: { customerId: mine.id, hostname: 'www.monitor-fixture.com', key: '-bad key' },
      }),
      400,
      'validationFailed',
    );

    const stranger = await anOrganization('wsm-keys-stranger');
    const strangerCustomer = await aMonitoredCustomer(stranger.token);
    const elsewhere = await api('POST', '/api/monitors/icmp', {
      token: stranger.token,
      body: { customerId: strangerCustomer.id, hostname: 'www.monitor-fixture.com', key: 'edge/ping-1' },
    });
    expect(elsewhere.status).to.equal(201);

    const cleared = await api('PATCH', `/api/monitors/icmp/${created.body.publicId}`, { token, body: { key: null } });
    expect(cleared.status).to.equal(200);
    expect(cleared.body.key).to.equal(null);
    const reused = await api('POST', '/api/websites', { token, body: { customerId: mine.id, url: PUBLIC_URL, key: 'edge/ping-1' } });
    expect(reused.status).to.equal(201);
    expect((await api('GET', `/api/websites/${reused.body.publicId}`, { token })).body.key).to.equal('edge/ping-1');
  });
});
