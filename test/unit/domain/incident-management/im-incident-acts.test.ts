import { expect } from 'chai';
import { IM_INCIDENT_STATUSES, ImIncident, type ImIncidentStatus } from '../../../../src/domain/incident-management/im-incident';
import { IM_INCIDENT_ACTS, imIncidentActs, type ImIncidentAct } from '../../../../src/domain/incident-management/im-incident-acts';
import { anImIncident } from '../../../support/builders/im-incident';

const T0 = new Date('2026-11-23T10:00:00Z');

/** Each act done on the entity itself: whether the state machine lets it happen from `status`. */
const ACCEPTED_BY_THE_ENTITY: Record<ImIncidentAct, (incident: ImIncident) => void> = {
  acknowledge: (incident) => incident.acknowledge('u1', T0),
  retrigger: (incident) => incident.changeStatus('triggered', 'u1', T0),
  resolve: (incident) => incident.resolve('u1', T0),
  snooze: (incident) => incident.snooze(new Date(T0.getTime() + 3_600_000), 'u1', T0),
  merge: (incident) => anImIncident('triggered').mergeInto(incident, 'u1', T0),
  addResponder: (incident) => incident.addResponder('u2', false, 'u1', T0),
  pageResponder: (incident) => incident.addResponder('u2', true, 'u1', T0),
  escalate: (incident) => incident.recordEscalation('u1', T0, { level: 1, pages: 1 }),
};

const accepts = (act: ImIncidentAct, status: ImIncidentStatus) => {
  try {
    ACCEPTED_BY_THE_ENTITY[act](anImIncident(status));
    return true;
  } catch {
    return false;
  }
};

describe("IM incident acts (an incident's `can`)", () => {
  it('offers, to a member who may escalate, exactly the acts the state machine accepts from each status', () => {
    for (const status of IM_INCIDENT_STATUSES) {
      const can = imIncidentActs(status, { teamMember: true, teamAdmin: true, mayEscalate: true });
      for (const act of IM_INCIDENT_ACTS) expect(can[act], `${act} from ${status}`).to.equal(accepts(act, status));
    }
  });

  it('offers someone outside the team only acknowledging (open to every IM user)', () => {
    expect(imIncidentActs('triggered', { teamMember: false, teamAdmin: false, mayEscalate: true })).to.deep.equal({
      acknowledge: true,
      retrigger: false,
      resolve: false,
      snooze: false,
      merge: false,
      addResponder: false,
      pageResponder: false,
      escalate: false,
    });
    expect(Object.values(imIncidentActs('acknowledged', { teamMember: false, teamAdmin: false, mayEscalate: true }))).to.not.include(true);
  });

  it("offers paging an added responder only to an admin of the incident's team", () => {
    const member = imIncidentActs('triggered', { teamMember: true, teamAdmin: false, mayEscalate: true });
    expect(member).to.include({ addResponder: true, pageResponder: false });
  });

  it('offers escalating only to a role the escalate gate lets through', () => {
    expect(imIncidentActs('triggered', { teamMember: true, teamAdmin: true, mayEscalate: false }).escalate).to.equal(false);
    expect(imIncidentActs('triggered', { teamMember: true, teamAdmin: true, mayEscalate: true }).escalate).to.equal(true);
  });
});
