import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { apiAt } from '../../../support/http-client';
import { aCallerSet } from '../../../support/callers';
import { setIncidentManagement } from '../../../support/im-fixtures';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { WebhookReceiver } from '../../../support/peers/webhook-receiver';
import { TwilioPeer } from '../../../support/peers/twilio-peer';
import { waitFor } from '../../../support/wait-for';
import { RunDueEscalations } from '../../../../src/application/on-call/run-due-escalations';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const HOOK_HOST = 'pager.contact-fixture.com';
const SMS_HOST = 'api.sms-contact-fixture.com';
const ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef';
const PHONE = '+14155550142';

/**
 * A person's contact methods through the real service: the escalation job's use case, the delivery
 * ledger, the notification worker, a loopback webhook receiver and the loopback Twilio-shaped server
 * the SMS provider adapter talks to (both vetted by the real target policy).
 */
describe('paging through contact methods (loopback webhook and SMS provider)', () => {
  const receiver = new WebhookReceiver(HOOK_HOST);
  const twilio = new TwilioPeer(SMS_HOST, ACCOUNT_SID);
  let service: DeliveryService;

  before(async () => {
    await Promise.all([receiver.start(), twilio.start()]);
    service = await aDeliveryService([HOOK_HOST, SMS_HOST], {
      SMS_PROVIDER_URL: twilio.baseUrl,
      SMS_ACCOUNT_SID: ACCOUNT_SID,
      SMS_AUTH_TOKEN: 'twilio-auth-token',
      SMS_FROM: '+15005550006',
    });
    service.worker('contact-methods-paging');
  });
  after(async () => {
    await service?.stop();
    await Promise.all([receiver.stop(), twilio.stop()]);
  });

  it("delivers the level 1 page to the paged user's webhook and SMS number, once each", async () => {
    const set = await aCallerSet();
    await setIncidentManagement(set.organizationId, true);
    const at = (method: string, path: string, token: string, body?: unknown) => apiAt(service.app.url, method, path, { token, body });
    const hookMethod = await at('POST', '/api/im/contact-methods', set.admin, { type: 'webhook', address: receiver.url('/page') });
    expect(hookMethod.status, JSON.stringify(hookMethod.body)).to.equal(201);
    expect(hookMethod.body.signingSecret).to.match(/^whsec_/);
    const smsMethod = await at('POST', '/api/im/contact-methods', set.admin, { type: 'sms', address: PHONE });
    expect(smsMethod.body.signingSecret).to.equal(null);
    expect((await at('PATCH', '/api/im/contact-methods/account-email', set.admin, { enabled: false })).status).to.equal(200);
    const policy = await at('POST', '/api/escalation-config', set.admin, {
      name: 'Checkout',
      repeatCount: 0,
      levels: [{ delayMinutes: 5, targets: [{ type: 'user', id: set.org.user.id }] }],
    });
    expect(policy.status, JSON.stringify(policy.body)).to.equal(201);
    const incident = await at('POST', '/api/im/incidents', set.admin, { title: 'Checkout is down', escalationPolicyId: policy.body.id });
    expect(incident.status, JSON.stringify(incident.body)).to.equal(201);

    const run = () => service.app.container.get(RunDueEscalations).execute();
    await run();
    await run();
    const hook = await waitFor(() => receiver.requests.find((r) => r.path === '/page'), { what: 'the webhook page' });
    const body = JSON.parse(hook!.body);
    expect(body).to.include({ event: 'im.incident.escalated', subject: '[Level 1] Checkout is down' });
    expect(body.data).to.include({ incidentId: incident.body.id, level: 1 });
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(hook!.headers['x-webhook-signature']))!;
    expect(v1).to.equal(createHmac('sha256', hookMethod.body.signingSecret).update(`${t}.${hook!.body}`).digest('hex'));
    const text = await waitFor(() => twilio.to(PHONE)[0], { what: 'the SMS page' });
    expect(text!.form.Body).to.include('Checkout is down');

    const rows = await service.app.database.sql.query<{ status: string }>(
      sql`SELECT status FROM notification_deliveries WHERE incident_id = ${incident.body.id}`,
    );
    await waitFor(
      async () =>
        (
          await service.app.database.sql.query<{ n: string }>(
            sql`SELECT count(*) AS n FROM notification_deliveries WHERE incident_id = ${incident.body.id} AND status = 'delivered'`,
          )
        )[0]!.n === '2',
      { what: 'both pages delivered' },
    );
    expect(rows).to.have.length(2);
    expect(receiver.requests.filter((r) => r.path === '/page')).to.have.length(1);
    expect(twilio.to(PHONE)).to.have.length(1);
  });
});
