import { expect } from 'chai';
import { type OrganizationSmtp, draftSmtp } from '../../../../src/domain/notifications/organization-smtp';
import { expectAppError } from '../../../support/expect-app-error';

const stored: OrganizationSmtp = {
  organizationId: 1,
  host: 'smtp.example.com',
  port: 2525,
  security: 'starttls',
  username: 'user',
  passwordCiphertext: 'sealed',
  fromAddress: 'alerts@example.com',
  verifiedAt: new Date(0),
  updatedAt: new Date(0),
};

describe('organization SMTP settings (draftSmtp)', () => {
  it('needs host and fromAddress on first setup', () => {
    expectAppError(() => draftSmtp(null, { fromAddress: 'a@example.com' }), 'invalidRequestBody', { field: 'host' });
    expectAppError(() => draftSmtp(null, { host: 'smtp.example.com' }), 'invalidRequestBody', { field: 'fromAddress' });
  });

  it('defaults the port by security', () => {
    const base = { host: 'smtp.example.com', fromAddress: 'a@example.com' };
    expect(draftSmtp(null, base).port).to.equal(587);
    expect(draftSmtp(null, { ...base, security: 'tls' }).port).to.equal(465);
    expect(draftSmtp(null, { ...base, security: 'none' }).port).to.equal(25);
    expect(draftSmtp(null, { ...base, security: 'tls', port: 2465 }).port).to.equal(2465);
  });

  it('keeps stored fields a change leaves out, the sealed password included (password undefined)', () => {
    expect(draftSmtp(stored, { fromAddress: 'noc@example.com' })).to.deep.equal({
      host: 'smtp.example.com',
      port: 2525,
      security: 'starttls',
      username: 'user',
      password: undefined,
      fromAddress: 'noc@example.com',
    });
  });

  it("takes the new security's default port when the security changes without a port", () => {
    expect(draftSmtp(stored, { security: 'tls' }).port).to.equal(465);
  });

  it('clears the password with the username, and wants a password with a username', () => {
    expect(draftSmtp(stored, { username: null })).to.include({ username: null, password: null });
    expectAppError(() => draftSmtp(null, { host: 'smtp.example.com', fromAddress: 'a@example.com', username: 'u' }), 'invalidRequestBody', {
      field: 'password',
    });
    expectAppError(() => draftSmtp(stored, { password: null }), 'invalidRequestBody', { field: 'password' });
  });

  it('lowercases the host', () => {
    expect(draftSmtp(null, { host: 'SMTP.Example.COM', fromAddress: 'a@example.com' }).host).to.equal('smtp.example.com');
  });
});
