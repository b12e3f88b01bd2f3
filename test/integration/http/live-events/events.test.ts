import { expect } from 'chai';
import pg from 'pg';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { aWebsite } from '../../../support/monitoring-fixtures';
import { anOrganization } from '../../../support/builders';
import { aMember } from '../../../support/identity-fixtures';
import { EventStreamClient } from '../../../support/event-stream';
import { testDatabase, testServer } from '../../../support/test-server';
import { DeliverDueNotifications } from '../../../../src/application/notifications/deliver-due-notifications';
import { DEFAULT_LIVE_EVENT_LIMITS } from '../../../../src/application/live-events/ports';
import { liveEventsInsert } from '../../../../src/infrastructure/live-events/live-event-append';
import { bind } from '../../../../src/infrastructure/persistence/sql';

/** A manual incident on `monitor` as `token`, then acknowledged and resolved: three events. */
async function anIncidentLifecycle(token: string, monitorId: string, title: string): Promise<string> {
  const created = await api('POST', '/api/incidents', { token, body: { monitorId, title } });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  const id = created.body.publicId as string;
  expect((await api('POST', `/api/incidents/${id}/acknowledge`, { token })).status).to.equal(200);
  expect((await api('POST', `/api/incidents/${id}/resolve`, { token })).status).to.equal(200);
  return id;
}

describe('http: GET /api/events (live event stream)', function () {
  this.timeout(60_000);
  let callers: CallerSet;
  let site: Record<string, any>;
  let otherSite: Record<string, any>;
  const streams: EventStreamClient[] = [];
  const open = async (options: Parameters<typeof EventStreamClient.open>[0]) => {
    const stream = await EventStreamClient.open(options);
    streams.push(stream);
    return stream;
  };

  before(async () => {
    callers = await aCallerSet();
    site = await aWebsite().forCustomer(callers.customer.id).named('Shop').create(callers.admin);
    otherSite = await aWebsite().forCustomer(callers.otherCustomer.id).named('Blog').create(callers.admin);
  });
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });

  it('tells an incident opened, acknowledged and resolved, in order, as server-sent events with ids', async () => {
    const stream = await open({ token: callers.admin });
    expect(stream.status).to.equal(200);
    expect(stream.headers.get('content-type')).to.match(/^text\/event-stream/);
    const id = await anIncidentLifecycle(callers.admin, site.publicId, 'Checkout <b>slow</b>');
    const opened = await stream.nextOf('incident.opened');
    expect(opened.id).to.match(/^\d+$/);
    expect(opened.data).to.deep.include({ kind: 'incident.opened', customerId: callers.customer.id });
    expect(opened.data.data).to.include({
      incidentId: id,
      monitorId: site.publicId,
      status: 'open',
      title: 'Checkout <b>slow</b>',
      origin: 'manual',
    });
    const acknowledged = await stream.nextOf('incident.acknowledged');
    const resolved = await stream.nextOf('incident.resolved');
    expect(acknowledged.data.data).to.include({ incidentId: id, status: 'acknowledged' });
    expect(resolved.data.data).to.include({ incidentId: id, status: 'resolved' });
    expect(Number(acknowledged.id)).to.be.above(Number(opened.id));
    expect(Number(resolved.id)).to.be.above(Number(acknowledged.id));
  });

  it("tells what another process commits (the database's notice, not this process's memory)", async () => {
    const stream = await open({ token: callers.admin });
    const created = await api('POST', '/api/incidents', { token: callers.admin, body: { monitorId: site.publicId, title: 'Elsewhere' } });
    await stream.nextOf('incident.opened');
    // Another service process acknowledges it: its change and the live event it appends at commit, on its own connection.
    const client = new pg.Client({ connectionString: (await testDatabase()).url });
    await client.connect();
    try {
      const told = bind(liveEventsInsert([{ kind: 'incident.acknowledged', incidentPublicId: created.body.publicId as string }]));
      await client.query('BEGIN');
      await client.query(`UPDATE incidents SET status = 'acknowledged' WHERE public_id = $1`, [created.body.publicId]);
      await client.query(told.text, [...told.values]);
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
    expect((await stream.nextOf('incident.acknowledged')).data.data.incidentId).to.equal(created.body.publicId);
  });

  it("sends customer-bound callers only their customer's events, and another organization nothing", async () => {
    const customerStream = await open({ token: callers.customerToken });
    const customerUserStream = await open({ token: callers.customerUser });
    const strangerStream = await open({ token: callers.stranger });
    const hidden = await anIncidentLifecycle(callers.admin, otherSite.publicId, 'Other customer');
    const shown = await anIncidentLifecycle(callers.admin, site.publicId, 'Bound customer');
    for (const stream of [customerStream, customerUserStream]) {
      const seen = [await stream.next()];
      while (!(seen.at(-1)!.event === 'incident.resolved' && seen.at(-1)!.data.data.incidentId === shown)) seen.push(await stream.next());
      expect(seen.map((e) => e.data.customerId)).to.deep.equal(seen.map(() => callers.customer.id));
      expect(seen.map((e) => e.data.data.incidentId))
        .to.include(shown)
        .and.not.include(hidden);
    }
    // The stranger's organization gets its own event first: nothing of A's came before it.
    const strangerMonitor = await aWebsite()
      .forCustomer(
        (
          await api('POST', '/api/customers', {
            token: callers.stranger,
            body: { name: 'Stranger customer', email: 'ops@stranger.test' },
          })
        ).body.customer.id,
      )
      .create(callers.stranger);
    const own = await anIncidentLifecycle(callers.stranger, strangerMonitor.publicId, 'Own');
    const first = await strangerStream.nextOf('incident.opened');
    expect(first.data.data.incidentId).to.equal(own);
    expect(strangerStream.events.map((e) => e.data.data.incidentId)).not.to.include.members([hidden, shown]);
  });

  it('resumes after Last-Event-ID (header or query) with exactly the events after it', async () => {
    const first = await open({ token: callers.orgToken });
    const id = await anIncidentLifecycle(callers.admin, site.publicId, 'Resumed');
    const opened = await first.nextOf('incident.opened');
    const acknowledged = await first.nextOf('incident.acknowledged');
    const resolved = await first.nextOf('incident.resolved');
    first.close();
    const resumed = await open({ token: callers.orgToken, lastEventId: opened.id });
    const afterOpened = await Promise.all([resumed.nextOf('incident.acknowledged'), resumed.nextOf('incident.resolved')]);
    expect(afterOpened.map((e) => e.id)).to.deep.equal([acknowledged.id, resolved.id]);
    expect(afterOpened.map((e) => e.data.data.incidentId)).to.deep.equal([id, id]);
    expect(resumed.events.slice(0, resumed.events.indexOf(afterOpened[0]!)).map((e) => e.id)).not.to.include(opened.id);
    const byQuery = await open({ token: callers.orgToken, query: `lastEventId=${acknowledged.id}` });
    expect((await byQuery.next()).id).to.equal(resolved.id);
  });

  it("tells a monitor's state change (paused, resumed) with its public id", async () => {
    const stream = await open({ token: callers.admin });
    expect(
      (await api('PATCH', `/api/websites/${otherSite.publicId}`, { token: callers.admin, body: { status: 'paused' } })).status,
    ).to.equal(200);
    const paused = await stream.nextOf('monitor.stateChanged');
    expect(paused.data).to.deep.include({ kind: 'monitor.stateChanged', customerId: callers.otherCustomer.id });
    expect(paused.data.data).to.include({ monitorId: otherSite.publicId, kind: 'website', name: 'Blog', state: 'paused' });
    expect(
      (await api('PATCH', `/api/websites/${otherSite.publicId}`, { token: callers.admin, body: { status: 'active' } })).status,
    ).to.equal(200);
    expect((await stream.nextOf('monitor.stateChanged')).data.data.state).to.not.equal('paused');
  });

  it("tells a notification delivery attempt to organization-wide callers; a customer-bound caller does not get the organization's own", async () => {
    const admin = await open({ token: callers.admin });
    const customer = await open({ token: callers.customerToken });
    const channel = await api('POST', '/api/notification-channels', {
      token: callers.admin,
      body: { name: 'ops', type: 'webhook', config: { url: 'https://hooks.live-events-fixture.com/alerts' } },
    });
    expect(channel.status, JSON.stringify(channel.body)).to.equal(201);
    await api('POST', `/api/notification-channels/${channel.body.publicId}/test`, { token: callers.admin });
    const attempt = await admin.nextOf('notification.deliveryAttempted');
    expect(attempt.data.customerId).to.equal(null);
    expect(attempt.data.data).to.include({ channelId: channel.body.publicId, channelType: 'webhook', attempt: 1 });
    expect(attempt.data.data.outcome).to.be.a('string');
    // The customer's stream has nothing of it: its next event is its own customer's.
    const created = await api('POST', '/api/incidents', {
      token: callers.admin,
      body: { monitorId: site.publicId, title: 'After the test' },
    });
    const next = await customer.next();
    expect(next.data.data.incidentId).to.equal(created.body.publicId);
  });

  it("sends a customer-bound caller the delivery attempts through its customer's channels, never through the organization's about its customer", async () => {
    const channel = async (body: Record<string, unknown>) => {
      const created = await api('POST', '/api/notification-channels', {
        token: callers.admin,
        body: { type: 'webhook', config: { url: `https://hooks.live-events-fixture.com/${String(body.name)}` }, ...body },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      return created.body.publicId as string;
    };
    const agency = await channel({ name: 'agency', events: ['alert.manual'] });
    const own = await channel({ name: 'own', events: ['alert.manual'], customerId: callers.customer.id });
    const admin = await open({ token: callers.admin });
    const customerStreams = [await open({ token: callers.customerToken }), await open({ token: callers.customerUser })];
    const alert = await api('POST', '/api/notifications/send-alert', {
      token: callers.admin,
      body: { title: 'About the customer', customerId: callers.customer.id, channelIds: [agency, own] },
    });
    expect(alert.status, JSON.stringify(alert.body)).to.be.within(200, 202);
    const ids = (alert.body.deliveries as Array<{ id: string }>).map((d) => d.id);
    expect(ids).to.have.length(2);
    // One attempt each, made as the deliverer makes them.
    const deliverer = (await testServer()).container.get(DeliverDueNotifications);
    for (const id of ids) expect(await deliverer.deliverNow('live-events-test', id)).to.not.equal(null);

    // Then an event of the customer's own: everything a customer stream got before it is in its scope.
    const sentinel = await api('POST', '/api/incidents', { token: callers.admin, body: { monitorId: site.publicId, title: 'Sentinel' } });
    for (const stream of customerStreams) {
      const seen = [await stream.next()];
      while (seen.at(-1)!.data.data.incidentId !== sentinel.body.publicId) seen.push(await stream.next());
      const told = seen.filter((e) => e.event === 'notification.deliveryAttempted').map((e) => e.data.data.channelId);
      expect(told, "the customer's channel's attempt, not the organization's").to.deep.equal([own]);
    }
    // Organization-wide callers get both: the organization's channel's as the organization's own (customerId null).
    const attempts = [await admin.nextOf('notification.deliveryAttempted'), await admin.nextOf('notification.deliveryAttempted')];
    expect(attempts.map((a) => [a.data.data.channelId, a.data.customerId]).sort()).to.deep.equal(
      [
        [agency, null],
        [own, callers.customer.id],
      ].sort(),
    );
  });

  it('refuses a Last-Event-ID that is not an event id with the envelope (400 validationFailed)', async () => {
    const refused = await open({ token: callers.admin, lastEventId: 'abc' });
    expectError(refused, 400, 'validationFailed');
    expectError(await api('GET', '/api/events', { token: callers.admin, query: { lastEventId: '-1' } }), 400, 'validationFailed');
    expectError(await api('GET', '/api/events', { token: callers.admin, query: { since: '1' } }), 400, 'validationFailed');
  });

  it('answers 401 without a credential', async () => {
    expectError(await open({}), 401, 'unauthorized');
  });

  it('bounds the open streams of an organization: one more is refused (429 eventStreamLimitReached, data.retryAfter)', async () => {
    const org = await anOrganization('bound');
    const bound = DEFAULT_LIVE_EVENT_LIMITS.streamsPerOrganization;
    const open1 = await Promise.all(Array.from({ length: bound }, () => open({ token: org.token })));
    expect(open1.map((s) => s.status)).to.deep.equal(open1.map(() => 200));
    const refused = await open({ token: org.token });
    expectError(refused, 429, 'eventStreamLimitReached');
    expect(refused.body.data.retryAfter).to.equal(DEFAULT_LIVE_EVENT_LIMITS.retryAfterSeconds);
    expect(refused.headers.get('retry-after')).to.equal(String(DEFAULT_LIVE_EVENT_LIMITS.retryAfterSeconds));
    // Other organizations are not affected; a closed stream frees its place.
    expect((await open({ token: callers.admin })).status).to.equal(200);
    open1[0]!.close();
    let again = await open({ token: org.token });
    for (let i = 0; again.status === 429 && i < 50; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      again = await open({ token: org.token });
    }
    expect(again.status).to.equal(200);
  });

  it('ends the stream when its session is signed out (event end, reason revoked)', async () => {
    const member = await aMember(callers.org, 'readonly');
    const stream = await open({ cookie: member.cookie });
    expect(stream.status).to.equal(200);
    expect((await api('POST', '/api/auth/sign-out', { token: member.token })).status).to.equal(200);
    const end = await stream.nextOf('end', DEFAULT_LIVE_EVENT_LIMITS.recheckMs + 5_000);
    expect(end.data).to.deep.equal({ reason: 'revoked' });
  });
});
