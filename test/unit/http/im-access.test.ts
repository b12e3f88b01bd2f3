import { expect } from 'chai';
import { imAccessDecision } from '../../../src/interfaces/http/incident-management/im-access.gate';
import type { Caller } from '../../../src/application/identity/authenticate-caller';
import { incidentManagementFor } from '../../../src/application/identity/incident-management-access';
import { anActor } from '../../support/builders';
import type { Actor } from '../../../src/application/shared/actor';
import { Organization } from '../../../src/domain/identity/organization';

const caller = (actor: Actor, enabled = true): Caller => {
  const organization = new Organization({ publicId: 'o', name: 'o', now: new Date(0) });
  organization.incidentManagementEnabled = enabled;
  return { actor, organization, user: {} as Caller['user'], expiresAt: null };
};

describe('incident management access decision', () => {
  it('refuses a request without a caller', () => expect(imAccessDecision(undefined)).to.equal('imAccessDenied'));
  for (const role of ['admin', 'editor', 'responder'] as const) {
    it(`admits ${role} sessions and tokens`, () => {
      expect(imAccessDecision(caller(anActor().with({ role }).build()))).to.equal(null);
      expect(imAccessDecision(caller(anActor().with({ role }).viaApiToken().build()))).to.equal(null);
    });
  }
  it('refuses read-only callers', () =>
    expect(imAccessDecision(caller(anActor().with({ role: 'readonly' }).build()))).to.equal('imAccessDenied'));
  it('refuses global supporters whatever their role', () =>
    expect(imAccessDecision(caller(anActor().with({ isPlatformSupporter: true }).build()))).to.equal('imAccessDenied'));
  it('refuses customer-bound callers', () =>
    expect(
      imAccessDecision(
        caller(
          anActor()
            .viaApiToken()
            .with({ scope: { organizationId: 1, customerId: 7 } })
            .build(),
        ),
      ),
    ).to.equal('imAccessDenied'));
  it('refuses agent tokens', () => expect(imAccessDecision(caller(anActor().asAgent(['api.read']).build()))).to.equal('imAccessDenied'));
  it('answers imNotEnabled to an admitted caller of an organization without IM', () =>
    expect(imAccessDecision(caller(anActor().build(), false))).to.equal('imNotEnabled'));
  it('judges access before the switch', () =>
    expect(imAccessDecision(caller(anActor().with({ role: 'readonly' }).build(), false))).to.equal('imAccessDenied'));
  it("says in the session's words what the gate would answer", () => {
    expect(incidentManagementFor(caller(anActor().with({ role: 'responder' }).build()))).to.equal('enabled');
    expect(incidentManagementFor(caller(anActor().build(), false))).to.equal('notEnabled');
    expect(incidentManagementFor(caller(anActor().with({ role: 'readonly' }).build(), false))).to.equal('accessDenied');
    expect(incidentManagementFor(caller(anActor().with({ isPlatformSupporter: true }).build()))).to.equal('accessDenied');
  });
});
