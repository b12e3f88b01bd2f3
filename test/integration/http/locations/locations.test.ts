import { expect } from 'chai';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { PROBE_CREDENTIALS, type ProbeCredentials } from '../../../../src/application/locations/ports';
import { api, expectError } from '../../../support/http-client';
import { anOrganization, type SignedUp } from '../../../support/builders';
import { aMember, signIn } from '../../../support/identity-fixtures';
import { aMonitoredCustomer, PUBLIC_URL } from '../../../support/monitoring-fixtures';
import { TEST_LOCATIONS, TEST_PLATFORM_ADMIN, testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const LOCATION_FIELDS = ['id', 'code', 'name', 'kind', 'configured', 'organizationId', 'status', 'lastSeenAt', 'probes', 'createdAt'];
const KEY_FIELDS = ['id', 'name', 'prefix', 'status', 'createdAt', 'lastUsedAt', 'revokedAt'];

const aCode = (label: string) => `${label}-${randomBytes(4).toString('hex')}`;

async function created(response: Promise<{ status: number; body: any }>, status = 201): Promise<any> {
  const answer = await response;
  expect(answer.status, JSON.stringify(answer.body)).to.equal(status);
  return answer.body;
}

const aPrivateLocation = (org: SignedUp, code = aCode('office'), name = 'Berlin office') =>
  created(api('POST', '/api/locations', { token: org.token, body: { code, name } }));

/** Signed in afresh: other tests move the shared clock past session lifetimes. */
const platformAdmin = async () => (await signIn(TEST_PLATFORM_ADMIN.email, TEST_PLATFORM_ADMIN.password)).token;

const codesSeenBy = async (token: string) => {
  const response = await api('GET', '/api/locations?perPage=200', { token });
  expect(response.status).to.equal(200);
  return (response.body.items as Array<{ code: string }>).map((l) => l.code);
};

const websiteAt = async (org: SignedUp, locations: string[]) => {
  const customer = await aMonitoredCustomer(org.token);
  return api('POST', '/api/websites', {
    token: org.token,
    body: { customerId: customer.id, url: PUBLIC_URL, status: 'paused', locations },
  });
};

describe('locations (HTTP)', () => {
  it('creates a private location its organization lists beside the configured ones, with its live status', async () => {
    const org = await anOrganization('loc');
    const code = aCode('office');
    const location = await aPrivateLocation(org, code);
    expect(location).to.have.all.keys(LOCATION_FIELDS);
    expect(location).to.deep.include({
      id: code,
      code,
      name: 'Berlin office',
      kind: 'private',
      configured: false,
      organizationId: org.user.organizationId,
      status: 'unknown',
      lastSeenAt: null,
      probes: 0,
    });
    expect(location.createdAt).to.match(ISO);

    const list = await api('GET', '/api/locations', { token: org.token });
    expect(list.body).to.include({ page: 1, perPage: 50 });
    const codes = (list.body.items as Array<{ code: string; kind: string; configured: boolean }>).map((l) => [
      l.code,
      l.kind,
      l.configured,
    ]);
    expect(codes.slice(0, TEST_LOCATIONS.length)).to.deep.equal(TEST_LOCATIONS.map((c) => [c, 'platform', true]));
    expect(codes).to.deep.include([code, 'private', false]);

    const renamed = await created(api('PATCH', `/api/locations/${code}`, { token: org.token, body: { name: ' Berlin DC ' } }), 200);
    expect(renamed.name).to.equal('Berlin DC');
    expect((await api('GET', `/api/locations/${code}`, { token: org.token })).body.name).to.equal('Berlin DC');
  });

  it('lets every role read and only admins change; codes are unique across the service, configured ones included', async () => {
    const org = await anOrganization('loc');
    const code = (await aPrivateLocation(org)).code as string;
    const readonly = await aMember(org, 'readonly');
    const editor = await aMember(org, 'editor');
    expect(await codesSeenBy(readonly.token)).to.include(code);
    expectError(await api('POST', '/api/locations', { token: editor.token, body: { code: aCode('x'), name: 'X' } }), 403, 'roleForbidden');
    expectError(await api('PATCH', `/api/locations/${code}`, { token: editor.token, body: { name: 'X' } }), 403, 'roleForbidden');
    expectError(await api('POST', `/api/locations/${code}/keys`, { token: readonly.token, body: {} }), 403, 'roleForbidden');
    expectError(await api('DELETE', `/api/locations/${code}`, { token: readonly.token }), 403, 'roleForbidden');

    const other = await anOrganization('loc');
    const taken = await api('POST', '/api/locations', { token: other.token, body: { code, name: 'Mine' } });
    expectError(taken, 409, 'locationCodeTaken');
    expect(taken.body.data.location).to.equal(code);
    expectError(
      await api('POST', '/api/locations', { token: other.token, body: { code: TEST_LOCATIONS[0], name: 'EU' } }),
      409,
      'locationCodeTaken',
    );
    expectError(
      await api('POST', '/api/locations', { token: other.token, body: { code: 'heartbeat', name: 'HB' } }),
      400,
      'validationFailed',
    );
    expectError(
      await api('POST', '/api/locations', { token: other.token, body: { code: 'Bad Code', name: 'B' } }),
      400,
      'validationFailed',
    );
    expectError(
      await api('PATCH', `/api/locations/${TEST_LOCATIONS[0]}`, { token: org.token, body: { name: 'EU' } }),
      403,
      'platformAdminRequired',
    );
  });

  it('shows a key once, then its prefix only; the key authenticates a probe until revoked, for good', async () => {
    const org = await anOrganization('loc');
    const code = (await aPrivateLocation(org)).code as string;
    const issued = await created(api('POST', `/api/locations/${code}/keys`, { token: org.token, body: { name: 'rack 1' } }));
    expect(issued).to.have.all.keys([...KEY_FIELDS, 'secret']);
    expect(issued.secret).to.match(/^pk_[A-Za-z0-9_-]{43}$/);
    expect(issued).to.deep.include({
      name: 'rack 1',
      prefix: issued.secret.slice(0, 9),
      status: 'active',
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(issued.id).to.match(UUID);

    const listed = await api('GET', `/api/locations/${code}/keys`, { token: org.token });
    expect(listed.body.items).to.have.length(1);
    expect(listed.body.items[0]).to.have.all.keys(KEY_FIELDS);
    expect(listed.text).not.to.include(issued.secret);

    const { database, container } = await testServer();
    const [row] = await database.sql.query(sql`SELECT * FROM probe_keys WHERE public_id = ${issued.id}`);
    expect((row!.secret_digest as Buffer).equals(createHash('sha256').update(issued.secret).digest())).to.equal(true);
    expect(JSON.stringify(row)).not.to.include(issued.secret.slice(9));

    const credentials = container.get<ProbeCredentials>(PROBE_CREDENTIALS);
    const now = testClock.now();
    const identity = await credentials.authenticate(issued.secret, now);
    expect(identity).to.deep.include({ locationCode: code, organizationId: org.user.organizationId, keyId: Number(row!.id) });
    const lastUsed = async () =>
      (await database.sql.query(sql`SELECT last_used_at FROM probe_keys WHERE id = ${row!.id}`))[0]!.last_used_at;
    expect(await lastUsed()).to.deep.equal(now);
    await credentials.authenticate(issued.secret, new Date(now.getTime() + 30_000));
    expect(await lastUsed(), 'noted at most once a minute').to.deep.equal(now);
    await credentials.authenticate(issued.secret, new Date(now.getTime() + 61_000));
    expect(await lastUsed()).to.deep.equal(new Date(now.getTime() + 61_000));
    expect(await credentials.authenticate(`pk_${randomBytes(32).toString('base64url')}`, now), 'unknown').to.equal(null);
    expect(await credentials.authenticate('not-a-key', now), 'not a key').to.equal(null);

    const second = await created(api('POST', `/api/locations/${code}/keys`, { token: org.token, body: {} }));
    const revoked = await created(api('DELETE', `/api/locations/${code}/keys/${issued.id}`, { token: org.token }), 200);
    expect(revoked).to.deep.include({ id: issued.id, status: 'revoked' });
    expect(revoked.revokedAt).to.match(ISO);
    expect(await credentials.authenticate(issued.secret, now), 'revoked').to.equal(null);
    expect(await credentials.authenticate(second.secret, now), 'the other key stays live').to.deep.include({ locationCode: code });
    const again = await created(api('DELETE', `/api/locations/${code}/keys/${issued.id}`, { token: org.token }), 200);
    expect(again.revokedAt).to.equal(revoked.revokedAt);
    expectError(await api('DELETE', `/api/locations/${code}/keys/${randomUUID()}`, { token: org.token }), 404, 'probeKeyNotFound');
    const states = (await api('GET', `/api/locations/${code}/keys`, { token: org.token })).body.items.map((k: any) => [k.id, k.status]);
    expect(states).to.deep.equal([
      [second.id, 'active'],
      [issued.id, 'revoked'],
    ]);
  });

  it("hides a private location from other organizations (404) and refuses its code in their monitors (400); the owner's monitors use it", async () => {
    const owner = await anOrganization('loc');
    const stranger = await anOrganization('loc');
    const code = (await aPrivateLocation(owner)).code as string;
    const key = await created(api('POST', `/api/locations/${code}/keys`, { token: owner.token, body: {} }));

    for (const [method, path] of [
      ['GET', `/api/locations/${code}`],
      ['PATCH', `/api/locations/${code}`],
      ['DELETE', `/api/locations/${code}`],
      ['GET', `/api/locations/${code}/keys`],
      ['POST', `/api/locations/${code}/keys`],
      ['DELETE', `/api/locations/${code}/keys/${key.id}`],
      ['GET', `/api/locations/${code}/probes`],
    ] as const) {
      expectError(
        await api(method, path, { token: stranger.token, ...(method === 'GET' ? {} : { body: method === 'PATCH' ? { name: 'x' } : {} }) }),
        404,
        'locationNotFound',
      );
    }
    expect(await codesSeenBy(stranger.token)).not.to.include(code);

    const refused = await websiteAt(stranger, [code]);
    expectError(refused, 400, 'validationFailed');
    expect(JSON.stringify(refused.body)).to.include(`Unknown location: ${code}`);

    const website = await websiteAt(owner, [TEST_LOCATIONS[0]!, code]);
    expect(website.status, JSON.stringify(website.body)).to.equal(201);
    expect(website.body.locations).to.deep.equal([TEST_LOCATIONS[0], code]);
    const inUse = await api('DELETE', `/api/locations/${code}`, { token: owner.token });
    expectError(inUse, 409, 'locationInUse');
    expect(inUse.body.data).to.include({ location: code, monitors: 1 });

    const moved = await api('PATCH', `/api/websites/${website.body.id}`, { token: owner.token, body: { locations: [TEST_LOCATIONS[0]] } });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    expect(await created(api('DELETE', `/api/locations/${code}`, { token: owner.token }), 200)).to.deep.equal({ success: true, code });
    expectError(await api('GET', `/api/locations/${code}`, { token: owner.token }), 404, 'locationNotFound');
    expect((await database()).length, 'its keys went with it').to.equal(0);

    async function database() {
      return (await testServer()).database.sql.query(sql`SELECT 1 FROM probe_keys WHERE public_id = ${key.id}`);
    }
  });

  it('takes a code of the longest form (40 characters) in a monitor of its organization', async () => {
    const org = await anOrganization('loc');
    const code = `dc-${randomBytes(20).toString('hex')}`.slice(0, 40);
    await aPrivateLocation(org, code);
    const website = await websiteAt(org, [code]);
    expect(website.status, JSON.stringify(website.body)).to.equal(201);
    expect(website.body.locations).to.deep.equal([code]);
  });

  it('lets the platform admin create a platform location every organization sees and may use, its keys hidden from them', async () => {
    const admin = await platformAdmin();
    const orgA = await anOrganization('loc');
    const orgB = await anOrganization('loc');
    const code = aCode('ap-edge');
    expectError(
      await api('POST', '/api/admin/locations', { token: orgA.token, body: { code, name: 'Edge' } }),
      403,
      'platformAdminRequired',
    );
    const location = await created(api('POST', '/api/admin/locations', { token: admin, body: { code, name: 'Asia edge' } }));
    expect(location).to.deep.include({ code, kind: 'platform', organizationId: null, configured: false });

    for (const org of [orgA, orgB]) {
      expect(await codesSeenBy(org.token)).to.include(code);
      const website = await websiteAt(org, [code]);
      expect(website.status, JSON.stringify(website.body)).to.equal(201);
      expect(website.body.locations).to.deep.equal([code]);
    }
    const key = await created(api('POST', `/api/admin/locations/${code}/keys`, { token: admin, body: { name: 'edge-1' } }));
    expect(key.secret).to.match(/^pk_/);
    expectError(await api('GET', `/api/locations/${code}/keys`, { token: orgA.token }), 404, 'locationNotFound');
    expectError(await api('GET', `/api/locations/${code}/probes`, { token: orgA.token }), 404, 'locationNotFound');
    expectError(await api('PATCH', `/api/locations/${code}`, { token: orgA.token, body: { name: 'Mine' } }), 403, 'platformAdminRequired');
    const inUse = await api('DELETE', `/api/admin/locations/${code}`, { token: admin });
    expectError(inUse, 409, 'locationInUse');
    expect(inUse.body.data.monitors).to.equal(2);
    expect((await created(api('PATCH', `/api/admin/locations/${code}`, { token: admin, body: { name: 'Asia' } }), 200)).name).to.equal(
      'Asia',
    );
    expectError(
      await api('PATCH', `/api/admin/locations/${TEST_LOCATIONS[0]}`, { token: admin, body: { name: 'EU' } }),
      409,
      'locationConfigured',
    );

    const privateCode = (await aPrivateLocation(orgA)).code as string;
    const seen = await api('GET', `/api/admin/locations/${privateCode}`, { token: admin });
    expect(seen.body).to.include({ kind: 'private', organizationId: orgA.user.organizationId });
    expectError(await api('DELETE', `/api/admin/locations/${privateCode}`, { token: admin }), 403, 'roleForbidden');
    const all = (await api('GET', '/api/admin/locations?perPage=200', { token: admin })).body.items.map((l: any) => l.code);
    expect(all).to.include.members([code, privateCode, ...TEST_LOCATIONS]);
  });

  it('is live while a probe serving it holds its lease, and lists each probe with its last report', async () => {
    const org = await anOrganization('loc');
    const code = (await aPrivateLocation(org)).code as string;
    await created(api('POST', `/api/locations/${code}/keys`, { token: org.token, body: {} }));
    const { database } = await testServer();
    const instanceId = randomUUID();
    const seenAt = new Date(Math.floor(testClock.now().getTime() / 1000) * 1000);
    await database.sql
      .query(sql`INSERT INTO probes (instance_id, probe_key_id, location_id, name, version, first_seen_at, last_seen_at, monitors_held,
         checks_per_second, lag_ms, buffered, dropped, last_seq)
       SELECT ${instanceId}::uuid, k.id, l.id, 'rack-1', '1.4.0', ${seenAt}, ${seenAt}, 120, 2.5, 35, 7, 3, 900 FROM locations l JOIN probe_keys k ON k.location_id = l.id WHERE l.code = ${code}`);
    const lease = async (aliveUntil: Date) =>
      database.sql
        .query(sql`INSERT INTO check_workers (worker_id, locations, alive_until) VALUES (${`probe:${instanceId}:1`}, ${[code]}::text[], ${aliveUntil})
         ON CONFLICT (worker_id) DO UPDATE SET alive_until = EXCLUDED.alive_until`);
    await lease(new Date(testClock.now().getTime() + 600_000));
    try {
      const live = await api('GET', `/api/locations/${code}`, { token: org.token });
      expect(live.body).to.include({ status: 'live', lastSeenAt: seenAt.toISOString(), probes: 1 });
      const probes = await api('GET', `/api/locations/${code}/probes`, { token: (await aMember(org, 'readonly')).token });
      expect(probes.body.items).to.deep.equal([
        {
          instanceId,
          name: 'rack-1',
          version: '1.4.0',
          firstSeenAt: seenAt.toISOString(),
          lastSeenAt: seenAt.toISOString(),
          monitorsHeld: 120,
          checksPerSecond: 2.5,
          lagMs: 35,
          buffered: 7,
          dropped: 3,
          live: true,
        },
      ]);
      await lease(new Date(testClock.now().getTime() - 1000));
      const silent = await api('GET', `/api/locations/${code}`, { token: org.token });
      expect(silent.body).to.include({ status: 'unknown', lastSeenAt: seenAt.toISOString() });
      expect((await api('GET', `/api/locations/${code}/probes`, { token: org.token })).body.items[0].live).to.equal(false);
    } finally {
      await database.sql.query(sql`DELETE FROM check_workers WHERE worker_id = ${`probe:${instanceId}:1`}`);
    }
  });

  it('records creating, renaming and deleting a location and issuing and revoking a key in the audit log, the digest redacted', async () => {
    const org = await anOrganization('loc');
    const code = (await aPrivateLocation(org)).code as string;
    await created(api('PATCH', `/api/locations/${code}`, { token: org.token, body: { name: 'Renamed' } }), 200);
    const key = await created(api('POST', `/api/locations/${code}/keys`, { token: org.token, body: {} }));
    await created(api('DELETE', `/api/locations/${code}/keys/${key.id}`, { token: org.token }), 200);
    await created(api('DELETE', `/api/locations/${code}`, { token: org.token }), 200);
    const log = await api('GET', '/api/audit-log?perPage=200', { token: org.token });
    const entries = (log.body.items as Array<Record<string, any>>).map((e) => [e.resourceType, e.resourceId, e.action]);
    expect(entries).to.deep.include.members([
      ['location', code, 'created'],
      ['location', code, 'updated'],
      ['location', code, 'deleted'],
      ['probeKey', key.id, 'created'],
      ['probeKey', key.id, 'updated'],
    ]);
    const issued = (log.body.items as Array<Record<string, any>>).find((e) => e.resourceType === 'probeKey' && e.action === 'created')!;
    expect(issued.changes.secretDigest.after).to.equal('[redacted]');
    expect(JSON.stringify(log.body)).not.to.include(key.secret);
  });
});
