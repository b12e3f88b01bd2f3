import { expect } from 'chai';
import {
  assertMayChangeManagementType,
  assertMayCreate,
  assertMayDelete,
  assertMayEdit,
  assertSelfServiceRoom,
  managementTypeOnCreate,
  type MonitorEditor,
  type SelfServiceTerms,
} from '../../../../src/domain/monitoring/ownership';
import { expectAppError } from '../../../support/expect-app-error';

const orgAdmin: MonitorEditor = { role: 'admin', customerScoped: false };
const orgEditor: MonitorEditor = { role: 'editor', customerScoped: false };
const orgReadonly: MonitorEditor = { role: 'readonly', customerScoped: false };
const customerAdmin: MonitorEditor = { role: 'admin', customerScoped: true };
const customerReadonly: MonitorEditor = { role: 'readonly', customerScoped: true };
const terms: SelfServiceTerms = { allowSelfService: true, maxSelfServiceUrls: 3, canEditManaged: false };

describe('ownership: creating', () => {
  it('gives customer-scoped callers self_service and organization callers managed by default', () => {
    expect(managementTypeOnCreate(customerAdmin, undefined)).to.equal('self_service');
    expect(managementTypeOnCreate(customerAdmin, 'self_service')).to.equal('self_service');
    expect(managementTypeOnCreate(orgEditor, undefined)).to.equal('managed');
    expect(managementTypeOnCreate(orgAdmin, 'self_service')).to.equal('self_service');
  });

  it('lets only organization admins choose the other class (managementTypeOrgOnly)', () => {
    expectAppError(() => managementTypeOnCreate(customerAdmin, 'managed'), 'managementTypeOrgOnly');
    expectAppError(() => managementTypeOnCreate(orgEditor, 'self_service'), 'managementTypeOrgOnly');
  });

  it('refuses customer-scoped creation while allowSelfService is false (selfServiceNotAllowed)', () => {
    expectAppError(() => assertMayCreate(customerAdmin, { ...terms, allowSelfService: false }), 'selfServiceNotAllowed');
    expect(() => assertMayCreate(customerAdmin, terms)).not.to.throw();
    expect(() => assertMayCreate(orgEditor, { ...terms, allowSelfService: false })).not.to.throw();
    expectAppError(() => assertMayCreate(orgReadonly, terms), 'roleForbidden');
  });

  it('counts self-service monitors against maxSelfServiceUrls at the boundary', () => {
    expect(() => assertSelfServiceRoom(2, terms)).not.to.throw();
    expectAppError(() => assertSelfServiceRoom(3, terms), 'selfServiceQuotaReached', { maxSelfServiceUrls: 3 });
    expectAppError(() => assertSelfServiceRoom(0, { ...terms, maxSelfServiceUrls: 0 }), 'selfServiceQuotaReached');
    expect(() => assertSelfServiceRoom(10_000, { ...terms, maxSelfServiceUrls: null })).not.to.throw();
  });
});

describe('ownership: editing and deleting', () => {
  it('keeps managed monitors from customer-scoped callers unless canEditManaged', () => {
    expectAppError(() => assertMayEdit(customerAdmin, 'managed', terms), 'managed_by_organization');
    expect(() => assertMayEdit(customerAdmin, 'managed', { ...terms, canEditManaged: true })).not.to.throw();
    expect(() => assertMayEdit(customerAdmin, 'self_service', terms)).not.to.throw();
    expect(() => assertMayEdit(orgEditor, 'managed', terms)).not.to.throw();
    expectAppError(() => assertMayDelete(customerAdmin, 'managed', terms), 'managed_by_organization');
  });

  it('never lets read-only users delete, whatever the class', () => {
    for (const cls of ['managed', 'self_service'] as const) {
      expectAppError(() => assertMayDelete(orgReadonly, cls, terms), 'readonlyMayNotDelete');
      expectAppError(() => assertMayDelete(customerReadonly, cls, { ...terms, canEditManaged: true }), 'readonlyMayNotDelete');
    }
    expectAppError(() => assertMayEdit(orgReadonly, 'managed', terms), 'roleForbidden');
    expectAppError(() => assertMayDelete({ role: 'responder', customerScoped: false }, 'managed', terms), 'roleForbidden');
  });

  it('lets only organization admins change managementType', () => {
    expect(() => assertMayChangeManagementType(orgAdmin)).not.to.throw();
    expectAppError(() => assertMayChangeManagementType(orgEditor), 'managementTypeOrgOnly');
    expectAppError(() => assertMayChangeManagementType(customerAdmin), 'managementTypeOrgOnly');
  });
});
