import { expect } from 'chai';
import {
  assertMayChangeManagementType, assertMayCreate, assertMayDelete, assertMayEdit, assertSelfServiceRoom,
  managementTypeOnCreate, type MonitorEditor, type SelfServiceTerms,
} from '../../../../src/domain/monitoring/ownership';
import { decideMonitorQuota, type MonitorQuota } from '../../../../src/domain/monitoring/monitor-quota';
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

describe('monitor quota tiers', () => {
  const quota = (over: Partial<MonitorQuota> = {}): MonitorQuota => ({ tiers: [2, 4, 8], tierIndex: 0, autoUpgrade: false, ...over });
  const person = { agent: false, allowPaidQuotaUpgrade: false };

  it('lets a monitor in while the tier has room', () => {
    expect(decideMonitorQuota(quota(), 1, person)).to.deep.equal({ kind: 'within' });
  });

  it('answers monitorQuotaReached when full without automatic upgrade', () => {
    expectAppError(() => decideMonitorQuota(quota(), 2, person), 'monitorQuotaReached', { limit: 2 });
  });

  it('upgrades to the next tier when the organization allows it', () => {
    expect(decideMonitorQuota(quota({ autoUpgrade: true }), 2, person)).to.deep.equal({ kind: 'upgrade', tierIndex: 1, limit: 4 });
  });

  it('answers monitorQuotaNoHigherTier at the top tier', () => {
    expectAppError(() => decideMonitorQuota(quota({ autoUpgrade: true, tierIndex: 2 }), 8, person), 'monitorQuotaNoHigherTier');
  });

  it('makes agents opt in to buying a paid tier (paidQuotaUpgradeNotAuthorized)', () => {
    expectAppError(() => decideMonitorQuota(quota({ autoUpgrade: true }), 2, { agent: true, allowPaidQuotaUpgrade: false }),
      'paidQuotaUpgradeNotAuthorized', { limit: 2, nextLimit: 4 });
    expect(decideMonitorQuota(quota({ autoUpgrade: true }), 2, { agent: true, allowPaidQuotaUpgrade: true }).kind).to.equal('upgrade');
    expect(decideMonitorQuota(quota({ autoUpgrade: true }), 1, { agent: true, allowPaidQuotaUpgrade: false }).kind).to.equal('within');
  });
});
