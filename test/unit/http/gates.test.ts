import { expect } from 'chai';
import { isAmbiguousPath } from '../../../src/interfaces/http/shared/gates/path-ambiguity';
import { isClosedToCustomerScope } from '../../../src/interfaces/http/shared/gates/customer-scope.gate';
import { isAllowedWhileSuspended, organizationStatusGate } from '../../../src/interfaces/http/shared/gates/organization-status.gate';
import { csrfGate, mfaEnrollmentGate } from '../../../src/interfaces/http/shared/gates/account.gates';
import type { GateRequest } from '../../../src/interfaces/http/shared/gates';
import type { Caller } from '../../../src/application/identity/authenticate-caller';
import { Organization } from '../../../src/domain/identity/organization';
import type { User } from '../../../src/domain/identity/user';
import { aUser } from '../../support/builders';
import { codeOf } from '../../support/expect-app-error';

const now = new Date();
function aCaller(
  overrides: { status?: Organization['status']; role?: User['role']; platform?: boolean; mfa?: boolean; requireEditors?: boolean } = {},
): Caller {
  const organization = new Organization({ publicId: 'p', name: 'o', now });
  organization.id = 1;
  organization.status = overrides.status ?? 'active';
  organization.requireMfaEditors = overrides.requireEditors ?? false;
  const user = aUser('u')
    .withRole(overrides.role ?? 'admin')
    .with({ twoFactorEnabled: overrides.mfa ?? false })
    .build();
  return {
    user,
    organization,
    expiresAt: null,
    actor: {
      kind: 'session',
      userId: 'u',
      role: user.role,
      scope: { organizationId: 1, customerId: null },
      isPlatformAdmin: overrides.platform ?? false,
      isPlatformSupporter: false,
      sessionId: 's',
      tokenId: null,
      mfaEnabled: user.twoFactorEnabled,
      stepUpVerifiedAt: null,
      agentScopes: [],
    },
  };
}
const req = (method: string, path: string, extra: Partial<GateRequest> = {}): GateRequest => ({
  method,
  path,
  viaCookie: false,
  origin: undefined,
  secFetchSite: undefined,
  ownOrigin: () => 'https://app.example',
  ...extra,
});

describe('path ambiguity', () => {
  const ambiguous = [
    '/api//users',
    '/api/./users',
    '/api/users/..',
    '/api/a/../b',
    '/api/a%2Fb',
    '/api/a%2fb',
    '/api/a%5Cb',
    '/api/a\\b',
    '/api/%2e%2e/b',
    '/api/%2E/b',
    '/api/a%252Fb',
    '/api/a%25252Fb',
    '/api/%252e%252e/b',
    '/api/a%2',
    '/api/x/%2e',
  ];
  for (const path of ambiguous) it(`refuses ${path}`, () => expect(isAmbiguousPath(path)).to.equal(true));
  for (const path of ['/api/users', '/api/users/abc-123', '/api/customer-domains/a.b.c', '/api/tools/dns?x=a%2Fb', '/']) {
    it(`accepts ${path}`, () => expect(isAmbiguousPath(path.split('?')[0]!)).to.equal(false));
  }
});

describe('customer-scoped denylist', () => {
  const closed: Array<[string, string]> = [
    ['GET', '/api/organizations'],
    ['GET', '/api/organizations/5'],
    ['PATCH', '/api/organization'],
    ['GET', '/api/organization/tokens'],
    ['GET', '/api/users'],
    ['DELETE', '/api/users/x'],
    ['GET', '/api/admin/x'],
    ['GET', '/api/platform-admin/settings'],
    ['GET', '/api/escalation-config'],
    ['GET', '/api/custom-pricing'],
    ['GET', '/api/custom-fields'],
    ['POST', '/api/custom-fields'],
    ['GET', '/api/im/incidents'],
    ['POST', '/api/notifications/send-alert'],
    ['POST', '/api/package-configs'],
    ['PATCH', '/api/package-configs/1'],
    ['POST', '/api/customers'],
    ['DELETE', '/api/customers/12'],
    ['POST', '/api/customers/bulk'],
  ];
  const open: Array<[string, string]> = [
    ['GET', '/api/organization'],
    ['GET', '/api/package-configs'],
    ['GET', '/api/customers'],
    ['GET', '/api/customers/12'],
    ['PATCH', '/api/customers/12'],
    ['GET', '/api/customers/sms-usage'],
    ['GET', '/api/websites'],
    ['POST', '/api/customer/tokens'],
    ['GET', '/api/users-guide'],
  ];
  for (const [m, p] of closed) it(`closes ${m} ${p}`, () => expect(isClosedToCustomerScope(m, p)).to.equal(true));
  for (const [m, p] of open) it(`leaves ${m} ${p} open`, () => expect(isClosedToCustomerScope(m, p)).to.equal(false));
});

describe('organization status gate', () => {
  it('lets active organizations through', () =>
    expect(codeOf(() => organizationStatusGate(aCaller(), req('GET', '/api/users')))).to.equal(undefined));
  it('locks suspended organizations outside the allowlist, without a code', () => {
    expect(codeOf(() => organizationStatusGate(aCaller({ status: 'suspended' }), req('GET', '/api/users')))).to.equal('organizationLocked');
  });
  it('keeps the suspended allowlist open', () => {
    for (const [m, p] of [
      ['GET', '/api/organization'],
      ['GET', '/api/auth/get-session'],
      ['POST', '/api/auth/sign-out'],
      ['POST', '/api/organization/data-export'],
      ['GET', '/api/organizations/abc'],
      ['POST', '/api/billing/mandate/return'],
    ] as const) {
      expect(isAllowedWhileSuspended(m, p), `${m} ${p}`).to.equal(true);
    }
    expect(isAllowedWhileSuspended('PATCH', '/api/organization')).to.equal(false);
  });
  it('locks deleted organizations everywhere with organizationSuspended', () => {
    for (const [m, p] of [
      ['GET', '/api/organization'],
      ['GET', '/api/auth/get-session'],
      ['POST', '/api/auth/sign-out'],
    ] as const) {
      expect(codeOf(() => organizationStatusGate(aCaller({ status: 'deleted' }), req(m, p)))).to.equal('organizationSuspended');
    }
  });
  it('does not apply to platform admins', () => {
    expect(codeOf(() => organizationStatusGate(aCaller({ status: 'deleted', platform: true }), req('GET', '/api/users')))).to.equal(
      undefined,
    );
  });
});

describe('CSRF gate', () => {
  const gate = csrfGate(['https://app.example', 'https://admin.example']);
  const cookieWrite = (extra: Partial<GateRequest>) => req('POST', '/api/users', { viaCookie: true, ...extra });
  it('refuses a cookie write from another origin', () =>
    expect(codeOf(() => gate(aCaller(), cookieWrite({ origin: 'https://evil.example' })))).to.equal('csrfOriginRejected'));
  it('refuses a cookie write marked cross-site', () =>
    expect(codeOf(() => gate(aCaller(), cookieWrite({ secFetchSite: 'cross-site' })))).to.equal('csrfOriginRejected'));
  it('refuses the opaque null origin', () =>
    expect(codeOf(() => gate(aCaller(), cookieWrite({ origin: 'null' })))).to.equal('csrfOriginRejected'));
  it('accepts own and trusted origins', () => {
    expect(codeOf(() => gate(aCaller(), cookieWrite({ origin: 'https://app.example' })))).to.equal(undefined);
    expect(codeOf(() => gate(aCaller(), cookieWrite({ origin: 'https://admin.example' })))).to.equal(undefined);
  });
  it('ignores bearer credentials and safe methods', () => {
    expect(codeOf(() => gate(aCaller(), req('POST', '/api/users', { origin: 'https://evil.example' })))).to.equal(undefined);
    expect(codeOf(() => gate(aCaller(), req('GET', '/api/users', { viaCookie: true, origin: 'https://evil.example' })))).to.equal(
      undefined,
    );
  });
});

describe('MFA enrolment gate', () => {
  it('refuses unenrolled callers of a required role outside /api/auth', () => {
    expect(codeOf(() => mfaEnrollmentGate(aCaller({ role: 'editor', requireEditors: true }), req('GET', '/api/users')))).to.equal(
      'mfa_enrollment_required',
    );
    expect(
      codeOf(() => mfaEnrollmentGate(aCaller({ role: 'editor', requireEditors: true }), req('POST', '/api/auth/two-factor/enable'))),
    ).to.equal(undefined);
  });
  it('lets enrolled callers and other roles through', () => {
    expect(
      codeOf(() => mfaEnrollmentGate(aCaller({ role: 'editor', requireEditors: true, mfa: true }), req('GET', '/api/users'))),
    ).to.equal(undefined);
    expect(codeOf(() => mfaEnrollmentGate(aCaller({ role: 'admin', requireEditors: true }), req('GET', '/api/users')))).to.equal(undefined);
  });
});
