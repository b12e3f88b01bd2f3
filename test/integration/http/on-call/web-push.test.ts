import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../../src/application/shared/transaction';
import { expect } from 'chai';
import { anOrganization, type SignedUp } from '../../../support/builders';
import { channelApi } from '../../../support/channel-api';
import { aCustomerRow, aMember } from '../../../support/identity-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';
import { PushService, type Device } from '../../../support/peers/push-service';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { waitFor } from '../../../support/wait-for';
import { setIncidentManagement } from '../../../support/im-fixtures';
import { sql } from '../../../../src/infrastructure/persistence/sql';
import { DIRECT_DELIVERIES, type DirectDeliveries } from '../../../../src/application/notifications/ports';

const PUSH_HOST = 'push.push-fixture.com';

/**
 * Web Push end to end: devices subscribed over the API, a `web-push` channel and a `web-push`
 * contact method delivering through the ledger and a real worker to a loopback push service that
 * checks VAPID (RFC 8292) and decrypts the payload (RFC 8291) with the keys the test made for the
 * device (reached through the target policy: its name resolves to 127.0.0.1 in the test DNS and
 * CHECK_PRIVATE_ALLOWLIST admits loopback); and the grant a notification carries, attacked.
 */
describe('Web Push (a loopback push service)', () => {
  const push = new PushService(PUSH_HOST);
  let service: DeliveryService;
  const { call, createChannel, sendTest, deliveryOf } = channelApi(() => service);

  before(async () => {
    await push.start();
    service = await aDeliveryService([PUSH_HOST], { NOTIFY_RETRY_MAX_MS: '200' });
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await push.stop();
  });

  const subscribe = async (org: SignedUp, label: string | null = 'Phone'): Promise<{ device: Device; id: string }> => {
    const listed = await call('GET', '/api/me/push-subscriptions', { token: org.token });
    expect(listed.status).to.equal(200);
    const device = push.device(listed.body.vapidPublicKey as string);
    const created = await call('POST', '/api/me/push-subscriptions', { token: org.token, body: { ...device.subscription, label } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return { device, id: created.body.id as string };
  };

  /** An open manual incident of a new monitor of the organization, and the push it caused on `device`. */
  const anIncidentPushedTo = async (org: SignedUp, device: Device, title = 'Checkout failing') => {
    const monitor = await aMonitorRow(org.user.organizationId, await aCustomerRow(org.user.organizationId), { consecutiveChecks: 1 });
    const before = push.to(device).length;
    const opened = await call('POST', '/api/incidents', { token: org.token, body: { monitorId: monitor.publicId, title } });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(201);
    const incidentId = opened.body.publicId as string;
    await waitFor(() => push.to(device).length > before, { what: 'the opening pushed', timeoutMs: 15_000 });
    return { incidentId, pushed: push.to(device)[before]! };
  };

  it('subscribes devices of the caller: listed without their endpoint (a credential), refused when malformed, removed', async () => {
    const org = await anOrganization('push-subscriptions');
    const other = await anOrganization('push-subscriptions-other');
    const listed = await call('GET', '/api/me/push-subscriptions', { token: org.token });
    expect(Buffer.from(listed.body.vapidPublicKey as string, 'base64url')).to.have.length(65);
    expect(listed.body.items).to.deep.equal([]);
    const { device, id } = await subscribe(org);
    const again = await call('POST', '/api/me/push-subscriptions', { token: org.token, body: device.subscription });
    expect(again.body.id, 'the same endpoint again is the same subscription').to.equal(id);
    const items = (await call('GET', '/api/me/push-subscriptions', { token: org.token })).body.items;
    expect(items).to.deep.equal([{ id, endpointOrigin: push.origin, label: 'Phone', createdAt: items[0].createdAt }]);
    expect(JSON.stringify(items)).not.to.include(device.id);

    const bad = await call('POST', '/api/me/push-subscriptions', {
      token: org.token,
      body: { ...device.subscription, keys: { ...device.subscription.keys, p256dh: 'AAAA' } },
    });
    expect(bad.status).to.equal(400);
    expect(bad.body.data).to.deep.include({ code: 'validationFailed', field: '/keys/p256dh', reason: 'notAP256Key' });

    const theirs = await call('DELETE', `/api/me/push-subscriptions/${id}`, { token: other.token });
    expect(theirs.status).to.equal(404);
    expect(theirs.body.data.code).to.equal('pushSubscriptionNotFound');
    expect((await call('DELETE', `/api/me/push-subscriptions/${id}`, { token: org.token })).status).to.equal(204);
    expect((await call('GET', '/api/me/push-subscriptions', { token: org.token })).body.items).to.deep.equal([]);
  });

  it("pushes an opened incident to the channel's people's devices, VAPID-signed and encrypted; its action acknowledges once", async () => {
    const org = await anOrganization('push-incident');
    const { device } = await subscribe(org);
    await createChannel(org.token, 'web-push', { userIds: [org.user.id] }, 'Phones');
    service.worker('push-incident-worker');
    const { incidentId, pushed } = await anIncidentPushedTo(org, device);
    expect(pushed.problems).to.deep.equal([]);
    expect(pushed.claims).to.include({ aud: push.origin });
    expect(pushed.headers.urgency).to.equal('high');
    expect(pushed.payload).to.deep.include({ url: `/app/incidents/${incidentId}`, tag: incidentId });
    expect(pushed.payload!.title).to.include('Checkout failing');
    const ack = pushed.payload!.ack as { url: string; grant: string };
    expect(ack.url).to.equal(`/api/push/incidents/${incidentId}/acknowledge`);
    expect(ack.grant).to.match(/^wpg_/);
    expect(JSON.stringify(pushed.payload)).not.to.include(org.token);

    const acknowledged = await call('POST', ack.url, { body: { grant: ack.grant } });
    expect(acknowledged.status, JSON.stringify(acknowledged.body)).to.equal(204);
    const incident = await call('GET', `/api/incidents/${incidentId}`, { token: org.token });
    expect(incident.body.acknowledgedAt).to.be.a('string');
    const reused = await call('POST', ack.url, { body: { grant: ack.grant } });
    expect(reused.status).to.equal(409);
    expect(reused.body.data.code).to.equal('pushGrantUsed');
    // The acknowledgement's own notification replaces the opening's (its tag) and acknowledges nothing.
    await waitFor(
      () => push.to(device).some((p) => p.payload?.title?.includes('acknowledged') || p.payload?.body?.includes('acknowledged')),
      {
        what: 'the acknowledgement pushed',
        timeoutMs: 15_000,
      },
    );
    expect(push.to(device).at(-1)!.payload).not.to.have.property('ack');
  });

  it('refuses a grant that is unknown, for another incident or organization, expired, or without one', async () => {
    const org = await anOrganization('push-grants');
    const other = await anOrganization('push-grants-other');
    const mine = await subscribe(org);
    const theirs = await subscribe(other);
    await createChannel(org.token, 'web-push', { userIds: [org.user.id] }, 'Phones');
    await createChannel(other.token, 'web-push', { userIds: [other.user.id] }, 'Phones');
    service.worker('push-grants-worker');
    const first = await anIncidentPushedTo(org, mine.device, 'First');
    const second = await anIncidentPushedTo(org, mine.device, 'Second');
    const foreign = await anIncidentPushedTo(other, theirs.device, 'Theirs');
    const grantOf = (p: typeof first) => (p.pushed.payload!.ack as { grant: string }).grant;
    const ackWith = (incidentId: string, grant: unknown) =>
      call('POST', `/api/push/incidents/${incidentId}/acknowledge`, { body: { grant } });

    {
      const refused = await ackWith(first.incidentId, 'wpg_nothing-of-the-sort');
      expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
      expect(refused.body.data.code).to.equal('pushGrantInvalid');
    }
    {
      const refused = await ackWith(first.incidentId, org.token);
      expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
      expect(refused.body.data.code).to.equal('pushGrantInvalid');
    }
    {
      const refused = await ackWith(second.incidentId, grantOf(first));
      expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
      expect(refused.body.data.code).to.equal('pushGrantMismatch');
    }
    {
      const refused = await ackWith(first.incidentId, grantOf(foreign));
      expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
      expect(refused.body.data.code).to.equal('pushGrantMismatch');
    }
    {
      const refused = await ackWith(foreign.incidentId, grantOf(first));
      expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
      expect(refused.body.data.code).to.equal('pushGrantMismatch');
    }
    {
      const refused = await call('POST', `/api/push/im-incidents/${first.incidentId}/acknowledge`, { body: { grant: grantOf(first) } });
      expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
      expect(refused.body.data.code).to.equal('pushGrantMismatch');
    }
    const missing = await ackWith(first.incidentId, undefined);
    expect(missing.status).to.equal(400);
    expect(missing.body.data.code).to.equal('validationFailed');
    await service.app.database.sql.query(
      sql`UPDATE web_push_grants SET expires_at = now() - interval '1 second' WHERE organization_id = ${org.user.organizationId} AND incident_ref = ${second.incidentId}`,
    );
    {
      const refused = await ackWith(second.incidentId, grantOf(second));
      expect(refused.status, JSON.stringify(refused.body)).to.equal(410);
      expect(refused.body.data.code).to.equal('pushGrantExpired');
    }
    for (const incidentId of [first.incidentId, second.incidentId, foreign.incidentId])
      expect(
        (await call('GET', `/api/incidents/${incidentId}`, { token: incidentId === foreign.incidentId ? other.token : org.token })).body
          .acknowledgedAt,
      ).to.equal(null);
    // The grants that were refused for another incident still acknowledge their own.
    expect((await ackWith(first.incidentId, grantOf(first))).status).to.equal(204);
    expect((await ackWith(foreign.incidentId, grantOf(foreign))).status).to.equal(204);
  });

  it('drops a subscription the push service answers 410 Gone, and retries one it answers 429', async () => {
    const org = await anOrganization('push-gone');
    const kept = await subscribe(org, 'Laptop');
    const gone = await subscribe(org, 'Old phone');
    const channel = await createChannel(org.token, 'web-push', { userIds: [org.user.id] }, 'Phones');
    push.unsubscribe(gone.device);
    push.script(kept.device, 429);
    const queued = await sendTest(org.token, channel);
    expect(queued, 'the 429 is retried').to.deep.include({ status: 'retry' });
    expect(queued.attempt).to.include({ statusCode: 429 });
    service.worker('push-gone-worker');
    await waitFor(async () => (await deliveryOf(queued.id))?.status === 'delivered', {
      what: 'the retry delivered',
      timeoutMs: 15_000,
    });
    expect(push.to(kept.device).map((p) => p.problems)).to.deep.equal([[], []]);
    expect(push.to(kept.device)[1]!.payload).to.deep.include({ url: '/app/' });
    const items = (await call('GET', '/api/me/push-subscriptions', { token: org.token })).body.items;
    expect(items.map((i: { id: string }) => i.id)).to.deep.equal([kept.id]);
  });

  it("rings only the channel's people who still see it: a person deactivated since the channel named them gets nothing", async () => {
    const org = await anOrganization('push-people-now');
    const customer = await aCustomerRow(org.user.organizationId, 'Harbour');
    const member = await aMember(org, 'responder', customer);
    const mine = await subscribe(org, 'Admin phone');
    const theirs = await subscribe({ ...org, token: member.token }, 'Responder phone');
    const created = await call('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'Harbour phones', type: 'web-push', config: { userIds: [org.user.id, member.id] }, customerId: customer },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect((await sendTest(org.token, created.body)).status).to.equal('delivered');
    expect([push.to(mine.device).length, push.to(theirs.device).length]).to.deep.equal([1, 1]);

    const deactivated = await call('PATCH', `/api/users/${member.id}`, { token: org.token, body: { isActive: false } });
    expect(deactivated.status, JSON.stringify(deactivated.body)).to.equal(200);
    expect((await sendTest(org.token, created.body)).status).to.equal('delivered');
    expect([push.to(mine.device).length, push.to(theirs.device).length], 'the deactivated responder is not rung').to.deep.equal([2, 1]);
  });

  it("pages a person's device through their web-push contact method, the grant bound to the IM incident", async () => {
    const org = await anOrganization('push-page');
    await setIncidentManagement(org.user.organizationId, true);
    const { device, id } = await subscribe(org);
    const method = await call('POST', '/api/im/contact-methods', { token: org.token, body: { type: 'web-push', address: id } });
    expect(method.status, JSON.stringify(method.body)).to.equal(201);
    const incidentId = '3f0c9a2e-8b1d-4c5e-9f6a-7b8c9d0e1f2a';
    const deliveries = service.app.container.get<DirectDeliveries>(DIRECT_DELIVERIES);
    await service.app.container.get<TransactionRunner>(TRANSACTION_RUNNER).run((tx) =>
      deliveries.enqueue(
        [
          {
            organizationId: org.user.organizationId,
            customerId: null,
            incidentId,
            recipient: { type: 'web-push', subscriptionId: id },
            event: 'im.incident.escalated',
            subject: '[Level 1] Database down',
            text: 'Ada, you are paged for an unacknowledged incident.',
            data: { incidentId, level: 1, userId: org.user.id, contactMethodId: method.body.id },
            dedupKey: `push-page:${incidentId}`,
          },
        ],
        new Date(),
        tx,
      ),
    );
    service.worker('push-page-worker');
    await waitFor(() => push.to(device).length > 0, { what: 'the page pushed', timeoutMs: 15_000 });
    const [paged] = push.to(device);
    expect(paged!.problems).to.deep.equal([]);
    expect(paged!.payload).to.deep.include({ title: '[Level 1] Database down', url: `/app/on-call/incidents?incident=${incidentId}` });
    expect(paged!.payload!.ack.url).to.equal(`/api/push/im-incidents/${incidentId}/acknowledge`);
    const [grant] = await service.app.database.sql.query<{ kind: string; user_id: string }>(
      sql`SELECT kind, user_id FROM web_push_grants WHERE incident_ref = ${incidentId}`,
    );
    expect(grant).to.deep.equal({ kind: 'im', user_id: org.user.id });
    // Removing the device removes the method naming it.
    expect((await call('DELETE', `/api/me/push-subscriptions/${id}`, { token: org.token })).status).to.equal(204);
    const methods = (await call('GET', '/api/im/contact-methods', { token: org.token })).body;
    expect(JSON.stringify(methods)).not.to.include(id);
  });
});
