import { expect } from 'chai';
import { ACTION_NAMES, isPermitted, permissionsOf, RESOURCES, type Principal } from '../../../../src/domain/identity/permissions';

const org = (role: Principal['role']): Principal => ({ role, customerScoped: false });
const allowed = (principal: Principal) => ACTION_NAMES.filter((action) => isPermitted(principal, action));

describe('role gates (domain/identity/permissions.ts)', () => {
  it('lets a read-only user only ask for a check, and a responder work on incidents besides', () => {
    expect(allowed(org('readonly'))).to.deep.equal(['monitor.check']);
    expect(allowed(org('responder'))).to.deep.equal([
      'monitor.check',
      'incident.acknowledge',
      'incident.postUpdate',
      'imIncident.escalate',
    ]);
  });

  it('lets those incident management serves escalate its incidents now: organization-wide admins, editors and responders', () => {
    for (const role of ['admin', 'editor', 'responder'] as const)
      expect(isPermitted(org(role), 'imIncident.escalate'), role).to.equal(true);
    expect(isPermitted(org('readonly'), 'imIncident.escalate')).to.equal(false);
    expect(isPermitted({ role: 'admin', customerScoped: true }, 'imIncident.escalate')).to.equal(false);
    expect(isPermitted({ role: 'responder', customerScoped: true }, 'imIncident.escalate')).to.equal(false);
  });

  it('keeps organization-wide acts from customer-bound callers, and from editors those of admins', () => {
    const customerAdmin: Principal = { role: 'admin', customerScoped: true };
    expect(isPermitted(customerAdmin, 'monitor.delete')).to.equal(true);
    expect(isPermitted(customerAdmin, 'auditLog.read')).to.equal(true);
    for (const action of ['user.manage', 'customer.create', 'customer.setTerms', 'changeRequest.settle', 'whiteLabel.manage'] as const) {
      expect(isPermitted(customerAdmin, action), action).to.equal(false);
      expect(isPermitted(org('admin'), action), action).to.equal(true);
    }
    expect(isPermitted(org('editor'), 'customer.create')).to.equal(true);
    expect(isPermitted(org('editor'), 'user.manage')).to.equal(false);
  });

  it('answers per resource, per act, every act of the table once', () => {
    const answer = permissionsOf(org('responder'));
    expect(Object.keys(answer)).to.deep.equal(RESOURCES);
    expect(answer.incident).to.deep.equal({ create: false, acknowledge: true, postUpdate: true, resolve: false, delete: false });
    expect(Object.values(answer).reduce((count, acts) => count + Object.keys(acts).length, 0)).to.equal(ACTION_NAMES.length);
  });
});
