import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { IM_INCIDENT_ACTS, type ImIncidentAct } from '../../../../src/domain/incident-management/im-incident-acts';
import { api } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { setIncidentManagement } from '../../../support/im-fixtures';
import { aMember, type Member } from '../../../support/identity-fixtures';
import { testClock } from '../../../support/test-clock';

/**
 * An IM incident's `can` is what the API then does: for every caller and every act, on a fresh
 * incident of a team, the act succeeds exactly when `can` said so, and every act's answer carries
 * the incident's `can` after it.
 */
describe('IM incidents: `can` answers what the API then accepts', () => {
  let callers: CallerSet;
  let lead: Member;
  let plain: Member;
  let outsider: Member;
  let teamId: string;

  before(async () => {
    callers = await aCallerSet();
    await setIncidentManagement(callers.organizationId, true);
    [lead, plain, outsider] = await Promise.all([
      aMember(callers.org, 'responder'),
      aMember(callers.org, 'responder'),
      aMember(callers.org, 'responder'),
    ]);
    const team = await api('POST', '/api/im/teams', {
      token: callers.admin,
      body: {
        name: `Can ${randomUUID()}`,
        members: [
          { userId: lead.id, imRole: 'admin' },
          { userId: plain.id, imRole: 'member' },
        ],
      },
    });
    expect(team.status, JSON.stringify(team.body)).to.be.oneOf([200, 201]);
    teamId = team.body.id;
  });

  /** A fresh incident of the team in `status`, made by the organization's admin. */
  const anIncident = async (status: 'triggered' | 'acknowledged', team: string | null = teamId) => {
    const created = await api('POST', '/api/im/incidents', { token: callers.admin, body: { title: `Can ${randomUUID()}`, teamId: team } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    if (status === 'acknowledged') {
      expect((await api('POST', `/api/im/incidents/${created.body.id}/acknowledge`, { token: callers.admin })).status).to.equal(200);
    }
    return created.body.id as string;
  };

  const ACT: Record<ImIncidentAct, (token: string, id: string) => Promise<{ status: number; body: any }>> = {
    acknowledge: (token, id) => api('POST', `/api/im/incidents/${id}/acknowledge`, { token }),
    retrigger: (token, id) => api('POST', `/api/im/incidents/${id}/status`, { token, body: { status: 'triggered' } }),
    resolve: (token, id) => api('POST', `/api/im/incidents/${id}/resolve`, { token }),
    snooze: (token, id) =>
      api('POST', `/api/im/incidents/${id}/snooze`, {
        token,
        body: { snoozedUntil: new Date(testClock.now().getTime() + 3_600_000).toISOString() },
      }),
    merge: async (token, id) =>
      api('POST', `/api/im/incidents/${id}/merge`, { token, body: { sourceIncidentIds: [await anIncident('triggered', null)] } }),
    addResponder: (token, id) => api('POST', `/api/im/incidents/${id}/responders`, { token, body: { userId: plain.id, notify: false } }),
    pageResponder: (token, id) => api('POST', `/api/im/incidents/${id}/responders`, { token, body: { userId: plain.id, notify: true } }),
    escalate: (token, id) => api('POST', `/api/im/incidents/${id}/escalate`, { token }),
  };

  for (const status of ['triggered', 'acknowledged'] as const) {
    it(`holds for every act on ${status === 'acknowledged' ? 'an' : 'a'} ${status} incident, for the organization's admin, the team's admin and member, and a responder outside the team`, async () => {
      const who = { admin: callers.admin, lead: lead.token, plain: plain.token, outsider: outsider.token };
      const seen: string[] = [];
      for (const [name, token] of Object.entries(who)) {
        for (const act of IM_INCIDENT_ACTS) {
          const id = await anIncident(status);
          const read = await api('GET', `/api/im/incidents/${id}`, { token });
          expect(read.status, JSON.stringify(read.body)).to.equal(200);
          expect(Object.keys(read.body.can)).to.have.members([...IM_INCIDENT_ACTS]);
          const done = await ACT[act](token, id);
          const accepted = done.status === 200;
          expect(
            accepted,
            `${name} ${act} on ${status}: can said ${read.body.can[act]}, the API answered ${done.status} ${JSON.stringify(done.body)}`,
          ).to.equal(read.body.can[act]);
          if (accepted) expect(done.body.can, 'the answer carries the incident’s acts after it').to.have.keys([...IM_INCIDENT_ACTS]);
          seen.push(`${name}:${act}:${accepted}`);
        }
      }
      // Both answers happen: the walk is not vacuous.
      expect(seen.some((s) => s.endsWith(':true'))).to.equal(true);
      expect(seen.some((s) => s.endsWith(':false'))).to.equal(true);
    });
  }

  it('says nothing is left to do on a resolved incident, and lists each incident with its own acts', async () => {
    const id = await anIncident('triggered');
    const resolved = await api('POST', `/api/im/incidents/${id}/resolve`, { token: callers.admin });
    expect(Object.values(resolved.body.can)).to.not.include(true);
    const open = await anIncident('triggered');
    const list = await api('GET', '/api/im/incidents?perPage=100', { token: outsider.token });
    const mine = (ref: string) => list.body.items.find((item: { id: string }) => item.id === ref);
    expect(Object.values(mine(id).can)).to.not.include(true);
    expect(mine(open).can).to.include({ acknowledge: true, resolve: false, escalate: false });
  });
});
