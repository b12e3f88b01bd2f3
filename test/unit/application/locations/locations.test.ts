import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { LocationAccess } from '../../../../src/application/locations/location-access';
import { ListLocations } from '../../../../src/application/locations/list-locations';
import { GetLocation } from '../../../../src/application/locations/get-location';
import { CreateLocation } from '../../../../src/application/locations/create-location';
import { UpdateLocation } from '../../../../src/application/locations/update-location';
import { DeleteLocation } from '../../../../src/application/locations/delete-location';
import { ListProbeKeys } from '../../../../src/application/locations/list-probe-keys';
import { CreateProbeKey } from '../../../../src/application/locations/create-probe-key';
import { RevokeProbeKey } from '../../../../src/application/locations/revoke-probe-key';
import { ListProbes } from '../../../../src/application/locations/list-probes';
import type { LocationRealm } from '../../../../src/application/locations/location-access';
import type { Actor } from '../../../../src/application/shared/actor';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import { sequentialIds, immediateTransactions } from '../../../support/fakes/shared-fakes';
import { FakeLocationStatus, FakeLocations, FakeProbeKeys } from '../../../support/fakes/locations-fakes';

const CONFIGURED = ['eu-west', 'us-east'];

function setup() {
  const clock = new ManualClock('2027-01-10T10:00:00Z');
  const locations = new FakeLocations();
  const keys = new FakeProbeKeys();
  const status = new FakeLocationStatus();
  const access = new LocationAccess(locations, { codes: CONFIGURED });
  let n = 0;
  const secrets = {
    generate: (prefix: string) => `${prefix}${String(++n).padStart(43, 'k')}`,
    hash: (secret: string) => createHash('sha256').update(secret).digest('base64url'),
  };
  const ids = sequentialIds();
  return {
    clock,
    locations,
    keys,
    status,
    list: (actor: Actor, realm: LocationRealm = 'organization') => new ListLocations(access, status, clock).execute(actor, { realm }),
    get: (actor: Actor, code: string, realm: LocationRealm = 'organization') =>
      new GetLocation(access, status, clock).execute(actor, { realm, code }),
    create: (actor: Actor, code: string, realm: LocationRealm = 'organization', name = `Location ${code}`) =>
      new CreateLocation(locations, access, clock, immediateTransactions).execute(actor, { realm, code, name }),
    rename: (actor: Actor, code: string, name: string, realm: LocationRealm = 'organization') =>
      new UpdateLocation(locations, access, status, clock, immediateTransactions).execute(actor, { realm, code, name }),
    remove: (actor: Actor, code: string, realm: LocationRealm = 'organization') =>
      new DeleteLocation(locations, access, immediateTransactions).execute(actor, { realm, code }),
    keysOf: (actor: Actor, code: string, realm: LocationRealm = 'organization') =>
      new ListProbeKeys(keys, access).execute(actor, { realm, code }),
    issueKey: (actor: Actor, code: string, realm: LocationRealm = 'organization') =>
      new CreateProbeKey(keys, access, secrets, ids, clock, immediateTransactions).execute(actor, { realm, code, name: 'rack' }),
    revokeKey: (actor: Actor, code: string, keyId: string, realm: LocationRealm = 'organization') =>
      new RevokeProbeKey(keys, access, clock, immediateTransactions).execute(actor, { realm, code, keyId }),
    probesOf: (actor: Actor, code: string, realm: LocationRealm = 'organization') =>
      new ListProbes(access, status, clock).execute(actor, { realm, code }),
  };
}

const admin = (organizationId = 1) => anActor().inOrganization(organizationId).build();
const member = (role: 'editor' | 'readonly', organizationId = 1) => anActor().inOrganization(organizationId).withRole(role).build();
const platformAdmin = () => anActor().inOrganization(99).platformAdmin().build();

describe('locations (use cases)', () => {
  it("lists the configured locations, then platform rows and the caller's private ones, never another organization's", async () => {
    const t = setup();
    await t.create(admin(1), 'office-a');
    await t.create(admin(2), 'office-b');
    await t.create(platformAdmin(), 'ap-south', 'platform');
    const seen = (await t.list(member('readonly', 1))).map((v) => [v.location.code, v.location.kind]);
    expect(seen).to.deep.equal([
      ['eu-west', 'platform'],
      ['us-east', 'platform'],
      ['ap-south', 'platform'],
      ['office-a', 'private'],
    ]);
    expect((await t.list(platformAdmin(), 'platform')).map((v) => v.location.code)).to.deep.equal([
      'eu-west',
      'us-east',
      'ap-south',
      'office-a',
      'office-b',
    ]);
  });

  it('answers locationNotFound for another organization\u2019s private location, as for a missing one', async () => {
    const t = setup();
    await t.create(admin(1), 'office-a');
    await expectAppErrorAsync(t.get(admin(2), 'office-a'), 'locationNotFound');
    await expectAppErrorAsync(t.get(admin(2), 'nowhere'), 'locationNotFound');
    await expectAppErrorAsync(t.keysOf(admin(2), 'office-a'), 'locationNotFound');
    await expectAppErrorAsync(t.remove(admin(2), 'office-a'), 'locationNotFound');
    expect((await t.get(admin(1), 'office-a')).location.organizationId).to.equal(1);
  });

  it('lets organization admins alone create, rename and delete private locations', async () => {
    const t = setup();
    for (const role of ['editor', 'readonly'] as const) {
      await expectAppErrorAsync(t.create(member(role), 'office-a'), 'roleForbidden');
    }
    await t.create(admin(), 'office-a');
    await expectAppErrorAsync(t.rename(member('editor'), 'office-a', 'Renamed'), 'roleForbidden');
    await expectAppErrorAsync(t.issueKey(member('readonly'), 'office-a'), 'roleForbidden');
    expect((await t.rename(admin(), 'office-a', 'Berlin')).location.name).to.equal('Berlin');
    expect((await t.get(member('readonly'), 'office-a')).location.name).to.equal('Berlin');
    await t.remove(admin(), 'office-a');
    expect(t.locations.rows).to.have.length(0);
  });

  it('refuses a code that is configured or already taken by any organization', async () => {
    const t = setup();
    await expectAppErrorAsync(t.create(admin(), 'eu-west'), 'locationCodeTaken', { location: 'eu-west' });
    await t.create(admin(1), 'office-a');
    await expectAppErrorAsync(t.create(admin(2), 'office-a'), 'locationCodeTaken');
    await expectAppErrorAsync(t.create(admin(), 'heartbeat'), 'validationFailed');
  });

  it('refuses to delete a location monitors still use, saying how many', async () => {
    const t = setup();
    await t.create(admin(), 'office-a');
    t.locations.monitorsUsing.set('office-a', 3);
    await expectAppErrorAsync(t.remove(admin(), 'office-a'), 'locationInUse', { location: 'office-a', monitors: 3 });
    expect(t.locations.rows).to.have.length(1);
  });

  it('shows the secret of a new key once; the key list holds its prefix and digest only', async () => {
    const t = setup();
    await t.create(admin(), 'office-a');
    const issued = await t.issueKey(admin(), 'office-a');
    expect(issued.secret).to.match(/^pk_/);
    expect(issued.key.secretPrefix).to.equal(issued.secret.slice(0, 9));
    const [listed] = await t.keysOf(member('readonly'), 'office-a');
    expect(listed!.publicId).to.equal(issued.key.publicId);
    expect(listed!.secretDigest).to.equal(createHash('sha256').update(issued.secret).digest('base64url'));
    expect(JSON.stringify(listed)).not.to.include(issued.secret);
  });

  it('keeps several keys live for a rolling replacement, and revokes one for good', async () => {
    const t = setup();
    await t.create(admin(), 'office-a');
    const first = await t.issueKey(admin(), 'office-a');
    const second = await t.issueKey(admin(), 'office-a');
    t.clock.advance(60_000);
    const revoked = await t.revokeKey(admin(), 'office-a', first.key.publicId);
    expect(revoked.revokedAt).to.deep.equal(t.clock.now());
    t.clock.advance(60_000);
    expect((await t.revokeKey(admin(), 'office-a', first.key.publicId)).revokedAt).to.deep.equal(revoked.revokedAt);
    const states = (await t.keysOf(admin(), 'office-a')).map((k) => [k.publicId, k.isRevoked]);
    expect(states).to.deep.equal([
      [second.key.publicId, false],
      [first.key.publicId, true],
    ]);
    await expectAppErrorAsync(t.revokeKey(admin(), 'office-a', 'no-such-key'), 'probeKeyNotFound');
  });

  it('hides the keys and probes of platform locations from organizations; changing them takes a platform admin', async () => {
    const t = setup();
    await t.create(platformAdmin(), 'ap-south', 'platform');
    await expectAppErrorAsync(t.keysOf(admin(), 'ap-south'), 'locationNotFound');
    await expectAppErrorAsync(t.probesOf(admin(), 'ap-south'), 'locationNotFound');
    await expectAppErrorAsync(t.rename(admin(), 'ap-south', 'Mine now'), 'platformAdminRequired');
    await expectAppErrorAsync(t.create(admin(), 'ap-north', 'platform'), 'platformAdminRequired');
    const issued = await t.issueKey(platformAdmin(), 'ap-south', 'platform');
    expect((await t.keysOf(platformAdmin(), 'ap-south', 'platform')).map((k) => k.publicId)).to.deep.equal([issued.key.publicId]);
  });

  it('gives platform staff a read-only view of private locations and nothing to change on configured ones', async () => {
    const t = setup();
    await t.create(admin(), 'office-a');
    expect((await t.get(platformAdmin(), 'office-a', 'platform')).location.kind).to.equal('private');
    await expectAppErrorAsync(t.remove(platformAdmin(), 'office-a', 'platform'), 'roleForbidden');
    await expectAppErrorAsync(t.rename(platformAdmin(), 'eu-west', 'Europe', 'platform'), 'locationConfigured');
    await expectAppErrorAsync(t.list(admin(), 'platform'), 'platformAdminRequired');
  });

  it('reports a location live while a worker serving it is alive, with its probes and their last report', async () => {
    const t = setup();
    const created = await t.create(admin(), 'office-a');
    expect(created.status.status).to.equal('unknown');
    const now = t.clock.now();
    t.status.ids.set('office-a', created.location.id!);
    t.status.workers.push({ locations: ['office-a'], aliveUntil: new Date(now.getTime() + 30_000) });
    t.status.probes.set(created.location.id!, [
      {
        instanceId: 'p1',
        name: 'rack',
        version: '1.0.0',
        firstSeenAt: now,
        lastSeenAt: now,
        monitorsHeld: 12,
        checksPerSecond: 0.5,
        lagMs: 40,
        buffered: 0,
        dropped: 0,
        aliveUntil: new Date(now.getTime() + 30_000),
      },
    ]);
    expect((await t.get(member('readonly'), 'office-a')).status).to.deep.equal({ status: 'live', lastSeenAt: now, probes: 1 });
    expect((await t.probesOf(member('readonly'), 'office-a')).map((p) => [p.instanceId, p.live])).to.deep.equal([['p1', true]]);
    t.clock.advance(60_000);
    expect((await t.get(admin(), 'office-a')).status.status).to.equal('unknown');
    expect((await t.probesOf(admin(), 'office-a'))[0]!.live).to.equal(false);
  });
});
