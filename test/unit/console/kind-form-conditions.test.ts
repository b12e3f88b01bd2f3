import { expect } from 'chai';
import { kindDefaults, kindFieldSpecs } from '../../../console/src/monitors/kind-fields';
import { changesOf } from '../../../console/src/monitors/monitor-kinds';
import type { Values } from '../../../console/src/monitors/field-spec';

/** The monitor form asks what a kind's descriptor says matters for the values typed so far. */
describe('console: a kind form asks only what applies (SNMP v2c and v3)', () => {
  const specs = kindFieldSpecs('snmp');
  const shown = (values: Values) => specs.filter((s) => !s.when || s.when(values)).map((s) => s.name);
  const v2c: Values = { ...kindDefaults('snmp'), hostname: 'switch.example.com', oid: '1.3.6.1.2.1.1.3.0' };

  it('shows no user and no v3 protocols for v2c, and calls the secret the community', () => {
    expect(shown(v2c)).to.include.members(['snmpVersion', 'oid', 'credentials.password']);
    expect(shown(v2c)).not.to.include.members(['credentials.username']);
    expect(shown(v2c)).not.to.include('authProtocol');
    expect(shown(v2c)).not.to.include('privProtocol');
    expect(specs.find((s) => s.name === 'credentials.password')!.label).to.match(/^Community/);
  });

  it('shows the user and both protocols for v3', () => {
    expect(shown({ ...v2c, snmpVersion: 'v3' })).to.include.members(['credentials.username', 'authProtocol', 'privProtocol']);
  });

  it('sends a v2c community with the implicit user (the API takes a login with a user) and a v3 login as typed', () => {
    const before = kindDefaults('snmp');
    const community = changesOf(specs, before, { ...v2c, 'credentials.password': 'private-c' });
    expect(community.credentials).to.deep.equal({ username: 'public', password: 'private-c' });
    expect(community).not.to.have.property('authProtocol');
    const typedUser = changesOf(specs, before, { ...v2c, 'credentials.username': 'left-over', 'credentials.password': 'c' });
    expect(typedUser.credentials).to.deep.equal({ username: 'public', password: 'c' });
    const v3 = changesOf(specs, before, {
      ...v2c,
      snmpVersion: 'v3',
      authProtocol: 'sha256',
      'credentials.username': 'mon',
      'credentials.password': 'auth-key',
    });
    expect(v3).to.deep.include({ snmpVersion: 'v3', authProtocol: 'sha256', credentials: { username: 'mon', password: 'auth-key' } });
    expect(changesOf(specs, before, v2c)).not.to.have.property('credentials');
  });

  it('keeps other services as they were: the user asked, nothing implicit', () => {
    const redis = kindFieldSpecs('redis');
    const user = redis.find((s) => s.name === 'credentials.username')!;
    expect(user.implicit).to.equal(undefined);
    expect(user.when!({ ...kindDefaults('redis'), checkMode: 'protocol' })).to.equal(true);
    expect(redis.find((s) => s.name === 'credentials.password')!.label).to.equal('Login password');
  });
});
