import { expect } from 'chai';
import { Location, assertLocationCode } from '../../../../src/domain/locations/location';
import { ProbeKey, probeKeyPrefixOf } from '../../../../src/domain/locations/probe-key';
import { locationStatusOf } from '../../../../src/domain/locations/location-status';
import { codeOf, expectAppError } from '../../../support/expect-app-error';

const NOW = new Date('2027-01-10T10:00:00Z');
const LATER = new Date('2027-01-10T11:00:00Z');

const aPrivateLocation = (overrides: Partial<Parameters<typeof Location.create>[0]> = {}) =>
  Location.create({ code: 'office-berlin', name: 'Berlin office', organizationId: 7, now: NOW, ...overrides });

const aKey = () =>
  ProbeKey.issue({
    publicId: '00000000-0000-4000-8000-000000000001',
    locationId: 1,
    name: 'rack 1',
    secret: 'pk_AbCdEf0123456789abcdefABCDEF0123456789abcde',
    secretDigest: 'digest',
    now: NOW,
  });

describe('locations (domain)', () => {
  describe('code', () => {
    it('takes lower case letters, digits and dashes, 2 to 40 characters, a letter or digit first', () => {
      for (const good of ['eu', '9z', 'office-berlin', 'a'.repeat(40), 'dc-1-rack-2']) expect(assertLocationCode(good)).to.equal(good);
    });

    it('refuses other shapes as a validation issue on `code`', () => {
      for (const bad of ['a', '-eu', 'EU-west', 'eu_west', 'eu west', 'a'.repeat(41), '', 'é-u']) {
        const error = expectAppError(() => assertLocationCode(bad), 'validationFailed');
        expect((error.details.issues as Array<{ path: string[] }>)[0]!.path).to.deep.equal(['code']);
      }
    });

    it('keeps `heartbeat` for heartbeat monitors', () => {
      expect(codeOf(() => aPrivateLocation({ code: 'heartbeat' }))).to.equal('validationFailed');
    });
  });

  describe('name', () => {
    it('is trimmed and 1 to 100 characters', () => {
      expect(aPrivateLocation({ name: '  Berlin  ' }).name).to.equal('Berlin');
      expect(aPrivateLocation({ name: 'x'.repeat(100) }).name).to.have.length(100);
      expect(codeOf(() => aPrivateLocation({ name: '   ' }))).to.equal('validationFailed');
      expect(codeOf(() => aPrivateLocation({ name: 'x'.repeat(101) }))).to.equal('validationFailed');
    });

    it('may be changed on a stored location, never on a configured one', () => {
      const location = aPrivateLocation();
      location.id = 3;
      location.rename(' Berlin DC ');
      expect(location.name).to.equal('Berlin DC');
      expectAppError(() => Location.configured('eu-west').rename('Europe'), 'locationConfigured', { location: 'eu-west' });
    });
  });

  describe('kind and use', () => {
    it('is private to its organization, which alone may use it', () => {
      const location = aPrivateLocation();
      expect(location.kind).to.equal('private');
      expect(location.isUsableBy(7)).to.equal(true);
      expect(location.isUsableBy(8)).to.equal(false);
    });

    it('is a platform location every organization may use when it has no organization', () => {
      const location = aPrivateLocation({ organizationId: null });
      expect(location.kind).to.equal('platform');
      expect([location.isUsableBy(7), location.isUsableBy(8)]).to.deep.equal([true, true]);
    });

    it('shows a configured code as a platform location named by its code, without a row', () => {
      const location = Location.configured('us-east');
      expect({ kind: location.kind, name: location.name, isConfigured: location.isConfigured }).to.deep.equal({
        kind: 'platform',
        name: 'us-east',
        isConfigured: true,
      });
    });
  });

  describe('probe key', () => {
    it('keeps the digest and a short prefix of the secret, never the secret', () => {
      const key = aKey();
      expect(key.secretPrefix).to.equal('pk_AbCdEf');
      expect(key.secretPrefix).to.equal(probeKeyPrefixOf('pk_AbCdEf0123456789'));
      expect(key.secretDigest).to.equal('digest');
      expect(Object.values(key)).not.to.include('pk_AbCdEf0123456789abcdefABCDEF0123456789abcde');
    });

    it('is live until revoked, and revoked as of its first revocation for good', () => {
      const key = aKey();
      expect(key.isRevoked).to.equal(false);
      key.revoke(NOW);
      key.revoke(LATER);
      expect(key.isRevoked).to.equal(true);
      expect(key.revokedAt).to.deep.equal(NOW);
    });
  });

  describe('live status', () => {
    it('is live while a serving worker is alive, unknown otherwise, with the last report either way', () => {
      expect(locationStatusOf({ servedNow: true, lastSeenAt: NOW, probes: 2 })).to.deep.equal({
        status: 'live',
        lastSeenAt: NOW,
        probes: 2,
      });
      expect(locationStatusOf({ servedNow: false, lastSeenAt: NOW, probes: 1 }).status).to.equal('unknown');
    });
  });
});
