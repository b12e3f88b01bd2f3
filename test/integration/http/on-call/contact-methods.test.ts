import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { setIncidentManagement } from '../../../support/im-fixtures';
import { testDnsServer, testServer } from '../../../support/test-server';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const HOOK_HOST = 'hooks.contact-methods-fixture.com';

describe('IM contact methods', () => {
  let set: CallerSet;
  let responderId: string;
  before(async () => {
    set = await aCallerSet();
    await setIncidentManagement(set.organizationId, true);
    (await testDnsServer()).set(HOOK_HOST, { A: ['93.184.216.34'] });
    const users = await api('GET', '/api/users', { token: set.admin });
    responderId = users.body.items.find((u: { role: string }) => u.role === 'responder').id;
  });

  it('lists the account e-mail, adds SMS and webhook methods, switches and removes them', async () => {
    const initial = await api('GET', '/api/im/contact-methods', { token: set.responder });
    expect(initial.status, JSON.stringify(initial.body.items)).to.equal(200);
    expect(initial.body.items).to.have.length(1);
    expect(initial.body.items[0]).to.include({
      id: 'account-email',
      userId: responderId,
      type: 'email',
      enabled: true,
      accountEmail: true,
    });

    const sms = await api('POST', '/api/im/contact-methods', { token: set.responder, body: { type: 'sms', address: '+14155550100' } });
    expect(sms.status, JSON.stringify(sms.body)).to.equal(201);
    expect(sms.body).to.include({ userId: responderId, type: 'sms', address: '+14155550100', enabled: true, accountEmail: false });
    const hook = await api('POST', '/api/im/contact-methods', {
      token: set.responder,
      body: { type: 'webhook', address: `https://${HOOK_HOST}/page` },
    });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
    expect(hook.body.signingSecret).to.match(/^whsec_/);
    const { database } = await testServer();
    const [row] = await database.sql.query<Record<string, unknown>>(sql`SELECT * FROM im_contact_methods WHERE id = ${hook.body.id}`);
    expect(row!.secret_ciphertext).to.be.a('string');
    expect(JSON.stringify(row)).to.not.include(hook.body.signingSecret.slice(6));
    expect((await api('GET', '/api/im/contact-methods', { token: set.responder })).body.items[2]).to.not.have.property('signingSecret');

    const off = await api('PATCH', '/api/im/contact-methods/account-email', { token: set.responder, body: { enabled: false } });
    expect(off.status, JSON.stringify(off.body)).to.equal(200);
    expect(off.body).to.include({ id: 'account-email', enabled: false });
    const paused = await api('PATCH', `/api/im/contact-methods/${sms.body.id}`, { token: set.responder, body: { enabled: false } });
    expect(paused.body).to.include({ enabled: false });
    const listed = await api('GET', '/api/im/contact-methods', { token: set.responder });
    expect(listed.body.items.map((m: { id: string; enabled: boolean }) => [m.id, m.enabled])).to.deep.equal([
      ['account-email', false],
      [sms.body.id, false],
      [hook.body.id, true],
    ]);

    expect((await api('DELETE', `/api/im/contact-methods/${hook.body.id}`, { token: set.responder })).status).to.be.oneOf([200, 204]);
    expectError(
      await api('PATCH', `/api/im/contact-methods/${hook.body.id}`, { token: set.responder, body: { enabled: true } }),
      404,
      'imContactMethodNotFound',
    );
  });

  it("lets an organization admin manage another user's methods; anyone else gets imContactMethodForbidden", async () => {
    const added = await api('POST', '/api/im/contact-methods', {
      token: set.admin,
      body: { userId: responderId, type: 'sms', address: '+14155550123' },
    });
    expect(added.status, JSON.stringify(added.body)).to.equal(201);
    const theirs = await api('GET', `/api/im/contact-methods?userId=${responderId}`, { token: set.admin });
    expect(theirs.body.items.map((m: { id: string }) => m.id)).to.include(added.body.id);
    expectError(
      await api('GET', `/api/im/contact-methods?userId=${set.org.user.id}`, { token: set.responder }),
      403,
      'imContactMethodForbidden',
    );
    const adminsOwn = await api('POST', '/api/im/contact-methods', { token: set.admin, body: { type: 'sms', address: '+14155550124' } });
    expectError(
      await api('DELETE', `/api/im/contact-methods/${adminsOwn.body.id}`, { token: set.editor }),
      403,
      'imContactMethodForbidden',
    );
    expectError(
      await api('GET', '/api/im/contact-methods?userId=00000000-0000-4000-8000-000000000000', { token: set.admin }),
      404,
      'userNotFound',
    );
  });

  it('refuses numbers outside E.164, and webhook hosts the target policy does not admit', async () => {
    expectError(
      await api('POST', '/api/im/contact-methods', { token: set.responder, body: { type: 'sms', address: '0301234567' } }),
      400,
      'validationFailed',
    );
    const refused = await api('POST', '/api/im/contact-methods', {
      token: set.responder,
      body: { type: 'webhook', address: 'http://10.20.30.40/hook' },
    });
    expectError(refused, 422, 'imContactMethodTargetRefused');
    expect(refused.body.data.reason).to.equal('nonPublicAddress');
    expectError(
      await api('POST', '/api/im/contact-methods', { token: set.responder, body: { type: 'fax', address: '+14155550100' } }),
      400,
      'validationFailed',
    );
  });

  it('is behind the IM gate', async () => {
    const off = await aCallerSet();
    expectError(await api('GET', '/api/im/contact-methods', { token: off.admin }), 403, 'imNotEnabled');
    expectError(await api('GET', '/api/im/contact-methods', { token: set.readonly }), 403, 'imAccessDenied');
  });
});
