import { expect } from 'chai';
import { anOrganization } from '../../support/builders';
import { aMonitoredCustomer } from '../../support/monitoring-fixtures';
import { setIncidentManagement } from '../../support/im-fixtures';
import { testCertificates } from '../../support/peers/certificates';
import { SmtpPeer } from '../../support/peers/smtp-peer';
import { waitFor } from '../../support/wait-for';
import { anEngineService, type EngineService } from '../../support/engine-service';
import { RunDueEscalations } from '../../../src/application/on-call/run-due-escalations';

const MAIL_HOST = 'mail.im-routing-fixture.com';

/**
 * The check engine's incidents routed into incident management, through the service as `npm start`
 * runs it (check worker, notification worker): a failing loopback target opens an automatic incident,
 * which opens an IM incident of the customer's routing; the escalation job pages level 1 (a loopback
 * SMTP server receives it); recovery resolves both.
 */
describe('monitor incidents routed into IM end to end (loopback target, loopback SMTP)', () => {
  let service: EngineService;
  let healthy = false;
  const smtp = new SmtpPeer(testCertificates().selfSigned, { starttls: false });
  before(async () => {
    service = await anEngineService({
      respond: (_req, res) => res.writeHead(healthy ? 200 : 503).end(healthy ? 'ok' : 'down'),
      peers: [smtp],
      hosts: [MAIL_HOST],
      settings: () => ({
        SMTP_URL: `smtp://user:secret@${MAIL_HOST}:${smtp.port}`,
        SMTP_FROM: 'pager@platform.example',
      }),
    });
  });
  after(async () => {
    await service?.stop();
  });

  it('opens an IM incident with the engine incident, pages level 1, and resolves it when the target recovers', async () => {
    const call = service.call;
    const org = await anOrganization('im-routing');
    await setIncidentManagement(org.user.organizationId, true);
    const customer = await aMonitoredCustomer(org.token);
    const policy = await call('POST', '/api/escalation-config', org.token, {
      name: 'Shop',
      repeatCount: 0,
      levels: [{ delayMinutes: 5, targets: [{ type: 'user', id: org.user.id }] }],
    });
    expect(policy.status, JSON.stringify(policy.body)).to.equal(201);
    const routing = await call('PUT', `/api/im/routing/customers/${customer.id}`, org.token, {
      enabled: true,
      escalationPolicyId: policy.body.id,
    });
    expect(routing.status, JSON.stringify(routing.body)).to.equal(200);
    const site = await call('POST', '/api/websites', org.token, { customerId: customer.id, url: `${service.targetUrl}/` });
    expect(site.status, JSON.stringify(site.body)).to.equal(201);
    const websiteId = site.body.publicId as string;
    const engineIncidents = async (status: string) =>
      (await call('GET', `/api/incidents?status=${status}`, org.token)).body.items as Array<Record<string, any>>;
    const imIncidents = async () => (await call('GET', '/api/im/incidents', org.token)).body.items as Array<Record<string, any>>;
    const checksRecorded = async () =>
      (await call('GET', `/api/websites/${websiteId}/check-history`, org.token)).body.items.length as number;

    for (let done = 1; (await engineIncidents('open')).length === 0; done++) {
      await call('POST', `/api/websites/${websiteId}/trigger-check`, org.token);
      await waitFor(async () => (await checksRecorded()) >= done, { what: `check ${done} recorded` });
      expect(done, 'an incident within five failing checks').to.be.at.most(5);
    }
    const [engine] = await engineIncidents('open');
    const [im] = await imIncidents();
    expect(im).to.include({
      status: 'triggered',
      source: 'monitor',
      escalationPolicyId: policy.body.id,
      customerId: customer.id,
      dedupKey: `monitor-storm:${customer.id}:-:${policy.body.id}`,
    });
    expect(im!.monitorOrigin).to.deep.equal({ monitorId: websiteId, incidentId: engine!.publicId });

    await service.app.container.get(RunDueEscalations).execute();
    const page = await waitFor(() => smtp.messages.find((m) => m.to.includes(org.email)), { what: 'the level 1 page' });
    expect(page!.raw).to.match(/^Subject: \[Level 1\] .* is down$/m);

    healthy = true;
    const before = await checksRecorded();
    await call('POST', `/api/websites/${websiteId}/trigger-check`, org.token);
    await waitFor(async () => (await checksRecorded()) > before, { what: 'the recovering check' });
    await waitFor(async () => (await engineIncidents('resolved')).length === 1, { what: 'the engine incident resolved' });
    const resolved = await call('GET', `/api/im/incidents/${im!.id}`, org.token);
    expect(resolved.body.status).to.equal('resolved');
    expect(resolved.body.timeline.map((e: { kind: string }) => e.kind)).to.deep.equal(['triggered', 'resolved']);
    expect(resolved.body.timeline[1].details).to.deep.equal({
      origin: 'monitor',
      monitorId: websiteId,
      incidentId: engine!.publicId,
      reason: 'monitorRecovered',
    });
    expect(await imIncidents()).to.have.length(1);
  });
});
