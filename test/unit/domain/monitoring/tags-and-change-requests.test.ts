import { expect } from 'chai';
import { assertSameOwner, assertTagColor, assertTagRoom, Tag, tagCustomer } from '../../../../src/domain/monitoring/tag';
import { assertRoomForChangeRequest, ChangeRequest } from '../../../../src/domain/monitoring/change-request';
import { expectAppError } from '../../../support/expect-app-error';

describe('tags', () => {
  it('takes colours from the fixed palette only, case-insensitively', () => {
    expect(assertTagColor('#3b82f6')).to.equal('#3B82F6');
    for (const bad of ['#3B82F7', 'blue', '', '#FFF', `#${'3B82F6'.repeat(7)}`])
      expectAppError(() => assertTagColor(bad), 'invalidTagColor');
  });

  it('allows five tags per monitor; re-attaching succeeds', () => {
    expect(assertTagRoom([1, 2, 3, 4], 5)).to.equal('attach');
    expectAppError(() => assertTagRoom([1, 2, 3, 4, 5], 6), 'tagLimitReached', { limit: 5 });
    expect(assertTagRoom([1, 2, 3, 4, 5], 3)).to.equal('alreadyAttached');
  });

  it("attaches a customer's tag to that customer's monitors, an organization-wide tag to any of the organization", () => {
    expect(() => assertSameOwner({ organizationId: 1, customerId: 7 }, { organizationId: 1, customerId: 7 })).not.to.throw();
    expectAppError(
      () => assertSameOwner({ organizationId: 1, customerId: 7 }, { organizationId: 2, customerId: 7 }),
      'tagMonitorOrgMismatch',
    );
    expectAppError(
      () => assertSameOwner({ organizationId: 1, customerId: 7 }, { organizationId: 1, customerId: 8 }),
      'tagMonitorOrgMismatch',
    );
    for (const customerId of [7, 8])
      expect(() => assertSameOwner({ organizationId: 1, customerId: null }, { organizationId: 1, customerId })).not.to.throw();
    expectAppError(
      () => assertSameOwner({ organizationId: 1, customerId: null }, { organizationId: 2, customerId: 7 }),
      'tagMonitorOrgMismatch',
    );
  });

  it('picks the tag customer: organization-wide callers name one or none, customer-scoped ones their own', () => {
    expect(tagCustomer(null, { id: 8, inOrganization: true }, true)).to.equal(8);
    expect(tagCustomer(null, null, true)).to.equal(null);
    expect(tagCustomer(null, null, false)).to.equal(null);
    expectAppError(() => tagCustomer(null, { id: 9, inOrganization: false }, true), 'invalidCustomer');
    expect(tagCustomer(7, null, false)).to.equal(7);
    expectAppError(() => tagCustomer(7, null, true), 'tagCustomerRequired');
    expect(tagCustomer(7, { id: 7, inOrganization: true }, true)).to.equal(7);
    expectAppError(() => tagCustomer(7, { id: 8, inOrganization: true }, true), 'invalidCustomer');
  });

  it('updates name and colour, still from the palette', () => {
    const tag = new Tag({ publicId: 'p', organizationId: 1, customerId: 2, name: 'prod', color: '#ef4444', now: new Date(0) });
    expect(tag.color).to.equal('#EF4444');
    tag.update({ name: 'production' }, new Date(1));
    expect(tag).to.include({ name: 'production', color: '#EF4444' });
    expectAppError(() => tag.update({ color: 'red' }, new Date(2)), 'invalidTagColor');
  });
});

describe('change requests', () => {
  const request = () =>
    new ChangeRequest({
      publicId: 'p',
      organizationId: 1,
      customerId: 2,
      monitorId: 3,
      monitorPublicId: 'm',
      monitorKind: 'website',
      action: 'update',
      changes: { name: 'x' },
      note: null,
      requestedByUserId: 'u',
      now: new Date(0),
    });

  it('allows ten open requests per customer, the eleventh answers tooManyOpenRequests with retryAfter', () => {
    expect(() => assertRoomForChangeRequest(9)).not.to.throw();
    expectAppError(() => assertRoomForChangeRequest(10), 'tooManyOpenRequests', { retryAfter: 3600 });
  });

  it('settles once', () => {
    const cr = request();
    cr.settle('approved', 'admin', 'ok', new Date(5));
    expect(cr).to.include({ status: 'approved', decidedByUserId: 'admin', decisionNote: 'ok' });
    expectAppError(() => cr.settle('rejected', 'admin', null, new Date(6)), 'changeRequestAlreadySettled', { status: 'approved' });
  });
});
