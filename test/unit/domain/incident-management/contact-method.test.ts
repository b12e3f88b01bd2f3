import { expect } from 'chai';
import {
  ACCOUNT_EMAIL_METHOD,
  assertContactAddress,
  changeContactMethod,
  pageRoutes,
  type ContactMethod,
} from '../../../../src/domain/incident-management/contact-method';
import { codeOf } from '../../../support/expect-app-error';

const t = new Date('2026-12-27T10:00:00Z');
const method = (id: string, type: ContactMethod['type'], address: string, enabled = true): ContactMethod => ({
  id,
  organizationId: 1,
  userId: 'ann',
  type,
  address,
  enabled,
  secret: type === 'webhook' ? 'whsec_1' : null,
  createdAt: t,
  updatedAt: t,
});
const routes = (methods: ContactMethod[]) => pageRoutes('ann@corp.example', methods).map((r) => [r.methodId, r.recipient]);

describe('page fan-out over contact methods', () => {
  it('a person without methods is paged at the account e-mail', () => {
    expect(routes([])).to.deep.equal([['account-email', { type: 'email', address: 'ann@corp.example' }]]);
  });

  it('pages the account e-mail and every enabled method, each once', () => {
    expect(
      routes([
        method('w1', 'webhook', 'https://hooks.example.com/ann'),
        method('s1', 'sms', '+14155550100'),
        method('s2', 'sms', '+14155550199', false),
      ]),
    ).to.deep.equal([
      ['account-email', { type: 'email', address: 'ann@corp.example' }],
      ['w1', { type: 'webhook', url: 'https://hooks.example.com/ann', secret: 'whsec_1' }],
      ['s1', { type: 'sms', phone: '+14155550100' }],
    ]);
  });

  it('leaves out the account e-mail its user switched off', () => {
    expect(routes([method('account-email', 'email', '', false), method('s1', 'sms', '+14155550100')])).to.deep.equal([
      ['s1', { type: 'sms', phone: '+14155550100' }],
    ]);
  });

  it('does not page one address twice (an added e-mail equal to the account address, in another case)', () => {
    expect(routes([method('e1', 'email', 'ANN@corp.example')]).map(([id]) => id)).to.deep.equal(['account-email']);
  });

  it('still pages the account e-mail when every method is off', () => {
    expect(routes([method('account-email', 'email', '', false), method('s1', 'sms', '+14155550100', false)])).to.deep.equal([
      ['account-email', { type: 'email', address: 'ann@corp.example' }],
    ]);
  });
});

describe('contact method addresses', () => {
  it('accepts E.164 numbers only for SMS', () => {
    expect(codeOf(() => assertContactAddress('sms', '+4930123456'))).to.equal(undefined);
    for (const bad of ['030123456', '+030123456', '+1 415 555 0100', '+1234567890123456']) {
      expect(
        codeOf(() => assertContactAddress('sms', bad)),
        bad,
      ).to.equal('validationFailed');
    }
  });

  it('accepts http(s) URLs without credentials for webhooks, and addresses for e-mail', () => {
    expect(codeOf(() => assertContactAddress('webhook', 'https://hooks.example.com/x'))).to.equal(undefined);
    expect(codeOf(() => assertContactAddress('webhook', 'ftp://hooks.example.com/x'))).to.equal('validationFailed');
    expect(codeOf(() => assertContactAddress('webhook', 'https://user:pw@hooks.example.com/x'))).to.equal('validationFailed');
    expect(codeOf(() => assertContactAddress('email', 'ann@corp.example'))).to.equal(undefined);
    expect(codeOf(() => assertContactAddress('email', 'ann'))).to.equal('validationFailed');
  });
});

describe('changing a contact method', () => {
  const later = new Date('2026-12-28T10:00:00Z');

  it('switches a method and changes its address, stamping the time, and leaves the original as it was', () => {
    const original = method('m1', 'sms', '+4915112345678');
    const changed = changeContactMethod(original, { enabled: false, address: '+4915187654321' }, later);
    expect(changed).to.include({ enabled: false, address: '+4915187654321', updatedAt: later, id: 'm1' });
    expect(original).to.include({ enabled: true, address: '+4915112345678', updatedAt: t });
  });

  it("refuses an address that does not fit the method's type, and any new address for the account e-mail", () => {
    expect(codeOf(() => changeContactMethod(method('m1', 'sms', '+4915112345678'), { address: 'not-a-number' }, later))).to.equal(
      'validationFailed',
    );
    const account = method(ACCOUNT_EMAIL_METHOD, 'email', 'ann@corp.example');
    expect(codeOf(() => changeContactMethod(account, { address: 'other@corp.example' }, later))).to.equal('validationFailed');
    expect(changeContactMethod(account, { enabled: false }, later).enabled).to.equal(false);
  });
});
