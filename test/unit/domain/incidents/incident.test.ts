import { expect } from 'chai';
import { Incident, type IncidentOrigin } from '../../../../src/domain/incidents/incident';
import { codeOf } from '../../../support/expect-app-error';

const t0 = new Date('2026-11-22T10:00:00Z');
const later = new Date('2026-11-22T11:00:00Z');
const anIncident = (origin: IncidentOrigin) =>
  new Incident({
    publicId: 'p',
    organizationId: 1,
    customerId: 2,
    monitorId: 3,
    origin,
    title: 'Down',
    description: null,
    causeReasonCode: null,
    causeMessage: null,
    startedAt: t0,
    createdByUserId: null,
    now: t0,
  });

describe('Incident', () => {
  it('open -> acknowledged, once; repeating changes nothing', () => {
    const incident = anIncident('manual');
    expect(incident.acknowledge('u1', t0)).to.equal(true);
    expect(incident.acknowledge('u2', later)).to.equal(false);
    expect(incident).to.include({ status: 'acknowledged', acknowledgedByUserId: 'u1', acknowledgedAt: t0 });
  });

  it('acknowledged -> resolved by a person (manual); resolved refuses both moves', () => {
    const incident = anIncident('manual');
    incident.acknowledge('u1', t0);
    incident.resolve({ userId: 'u1', automatic: false }, later, later);
    expect(incident).to.include({ status: 'resolved', resolvedAt: later, resolvedByUserId: 'u1', isOpen: false });
    expect(codeOf(() => incident.acknowledge('u1', later))).to.equal('incidentAlreadyResolved');
    expect(codeOf(() => incident.resolve({ userId: 'u1', automatic: false }, later, later))).to.equal('incidentAlreadyResolved');
  });

  it('automatic incidents resolve through recovery only, and are never deleted (notManualIncident)', () => {
    const incident = anIncident('automatic');
    expect(codeOf(() => incident.resolve({ userId: 'u1', automatic: false }, later, later))).to.equal('notManualIncident');
    expect(codeOf(() => incident.assertDeletable())).to.equal('notManualIncident');
    incident.resolve({ userId: null, automatic: true }, later, later);
    expect(incident.status).to.equal('resolved');
    expect(codeOf(() => anIncident('manual').assertDeletable())).to.equal(undefined);
  });

  it('an update is a trimmed note of the poster on an open or acknowledged incident; a resolved one refuses it', () => {
    const incident = anIncident('automatic');
    incident.id = 7;
    expect(incident.postUpdate('u1', '  Rolled back  ', t0)).to.include({
      incidentId: 7,
      kind: 'update',
      message: 'Rolled back',
      userId: 'u1',
      at: t0,
    });
    incident.acknowledge('u1', t0);
    expect(incident.postUpdate(null, 'Still watching', later).kind).to.equal('update');
    incident.resolve({ userId: null, automatic: true }, later, later);
    expect(codeOf(() => incident.postUpdate('u1', 'Too late', later))).to.equal('incidentAlreadyResolved');
  });

  it('an update of blank or more than 2,000 characters is refused at its message', () => {
    const incident = anIncident('manual');
    expect(codeOf(() => incident.postUpdate('u1', '   ', t0))).to.equal('validationFailed');
    expect(codeOf(() => incident.postUpdate('u1', 'x'.repeat(2001), t0))).to.equal('validationFailed');
    expect(incident.postUpdate('u1', ` ${'x'.repeat(2000)} `, t0).message).to.have.length(2000);
  });
});
