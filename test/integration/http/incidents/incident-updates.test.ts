import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { EventStreamClient } from '../../../support/event-stream';
import { aCustomerRow, aCustomerToken, aMember } from '../../../support/identity-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';

async function anOpenIncident(title = 'Checkout slow') {
  const org = await anOrganization();
  const customerId = await aCustomerRow(org.user.organizationId);
  const monitor = await aMonitorRow(org.user.organizationId, customerId, { consecutiveChecks: 1 });
  const created = await api('POST', '/api/incidents', { token: org.token, body: { monitorId: monitor.publicId, title } });
  expect(created.status).to.equal(201);
  return { org, customerId, incident: created.body as { publicId: string; id: number } };
}

const updatesOf = async (token: string, id: string) =>
  ((await api('GET', `/api/incidents/${id}`, { token })).body.timeline as Array<Record<string, unknown>>).filter(
    (e) => e.kind === 'update',
  );

describe('Incident updates API (POST /api/incidents/{id}/updates)', () => {
  it('posts a trimmed note to the timeline as the poster, audited under the incident and told on the event stream', async () => {
    const { org, incident } = await anOpenIncident();
    const stream = await EventStreamClient.open({ token: org.token });
    try {
      const posted = await api('POST', `/api/incidents/${incident.publicId}/updates`, {
        token: org.token,
        body: { message: '  Rolled back the 14:02 deploy; watching errors.  ' },
      });
      expect(posted.status).to.equal(201);
      expect(posted.body).to.include({ kind: 'update', message: 'Rolled back the 14:02 deploy; watching errors.', userId: org.user.id });
      expect(posted.body).to.include({ location: null, status: null, reasonCode: null });
      expect(Date.parse(posted.body.at)).to.be.a('number').and.not.NaN;

      const detail = await api('GET', `/api/incidents/${incident.publicId}`, { token: org.token });
      expect(detail.body.timeline.map((e: { kind: string }) => e.kind)).to.deep.equal(['opened', 'update']);
      expect(detail.body.timeline[1]).to.deep.equal(posted.body);

      const told = await stream.nextOf('incident.updated');
      expect(told.data.data).to.include({ incidentId: incident.publicId, status: 'open', title: 'Checkout slow' });
    } finally {
      stream.close();
    }

    const log = await api('GET', '/api/audit-log', { token: org.token, query: { perPage: '200' } });
    const entry = (log.body.items as Array<Record<string, any>>).find(
      (e) => e.resourceType === 'incident' && e.resourceId === incident.publicId && e.action === 'updated',
    );
    expect(entry, 'audit entry').to.exist;
    const [key] = Object.keys(entry!.changes);
    expect(key).to.match(/^updates\.\d+$/);
    expect(entry!.changes[key!].after).to.include({ kind: 'update', message: 'Rolled back the 14:02 deploy; watching errors.' });
    expect(entry!.actor.userId).to.equal(org.user.id);
  });

  it('refuses an empty, blank or too long note at the message field, and unknown fields', async () => {
    const { org, incident } = await anOpenIncident();
    const path = `/api/incidents/${incident.publicId}/updates`;
    for (const body of [{ message: '' }, { message: '   ' }, { message: 'x'.repeat(2001) }, {}]) {
      const refused = await api('POST', path, { token: org.token, body });
      expectError(refused, 400, 'validationFailed');
      expect(refused.body.data.issues.map((i: { path: string[] }) => i.path[0])).to.include('message');
    }
    expectError(await api('POST', path, { token: org.token, body: { message: 'ok', status: 'resolved' } }), 400, 'validationFailed');
    expect(await updatesOf(org.token, incident.publicId)).to.deep.equal([]);
    expect((await api('POST', path, { token: org.token, body: { message: 'x'.repeat(2000) } })).status).to.equal(201);
  });

  it('refuses a resolved incident (incidentAlreadyResolved) and keeps its timeline as it was', async () => {
    const { org, incident } = await anOpenIncident();
    expect((await api('POST', `/api/incidents/${incident.publicId}/resolve`, { token: org.token })).status).to.equal(200);
    expectError(
      await api('POST', `/api/incidents/${incident.publicId}/updates`, { token: org.token, body: { message: 'Too late' } }),
      409,
      'incidentAlreadyResolved',
    );
    expect(await updatesOf(org.token, incident.publicId)).to.deep.equal([]);
  });

  it('lets admins, editors and responders post; read-only users get roleForbidden', async () => {
    const { org, incident } = await anOpenIncident();
    const path = `/api/incidents/${incident.publicId}/updates`;
    const [editor, responder, readonly] = await Promise.all([aMember(org, 'editor'), aMember(org, 'responder'), aMember(org, 'readonly')]);
    expectError(await api('POST', path, { token: readonly.token, body: { message: 'Looking' } }), 403, 'roleForbidden');
    expect((await api('POST', path, { token: editor.token, body: { message: 'Editor here' } })).status).to.equal(201);
    expect((await api('POST', path, { token: responder.token, body: { message: 'Responder here' } })).status).to.equal(201);
    const updates = await updatesOf(org.token, String(incident.id));
    expect(updates.map((u) => [u.message, u.userId])).to.deep.equal([
      ['Editor here', editor.id],
      ['Responder here', responder.id],
    ]);
  });

  it('answers 404 for another organization, another customer and an unknown id', async () => {
    const { org, incident } = await anOpenIncident();
    const path = `/api/incidents/${incident.publicId}/updates`;
    const stranger = await anOrganization('stranger');
    expectError(await api('POST', path, { token: stranger.token, body: { message: 'Hi' } }), 404, 'incidentNotFound');
    const otherCustomer = await aCustomerRow(org.user.organizationId, 'Other');
    const otherCustomerToken = await aCustomerToken(org.token, otherCustomer);
    expectError(await api('POST', path, { token: otherCustomerToken, body: { message: 'Hi' } }), 404, 'incidentNotFound');
    expectError(
      await api('POST', '/api/incidents/00000000-0000-4000-8000-000000000000/updates', { token: org.token, body: { message: 'Hi' } }),
      404,
      'incidentNotFound',
    );
    expect(await updatesOf(org.token, incident.publicId)).to.deep.equal([]);
  });
});
