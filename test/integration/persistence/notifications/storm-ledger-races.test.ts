import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitoredCustomer } from '../../../support/monitoring-fixtures';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { testDatabase, testServer } from '../../../support/test-server';
import { SqlStormLedger } from '../../../../src/infrastructure/notifications/sql-storm-ledger';
import { SqlDeliveryLedger } from '../../../../src/infrastructure/notifications/sql-delivery-ledger';
import { SqlChannelHealthLedger } from '../../../../src/infrastructure/notifications/sql-channel-health-ledger';
import { OutboxIncidentEvents, UNTOLD_HELD } from '../../../support/outbox-events';
import { channelFailingMessage } from '../../../../src/domain/notifications/channel-health';
import { CALM, routeInStorm, stormDueAt, tellStorm, type CustomerStorm } from '../../../../src/domain/notifications/storm-digest';
import type { DueStorm, OutboxEvent, StormRoute } from '../../../../src/application/notifications/ports';
import { standalone } from '../../../support/unit-of-work';
import { raw, sql } from '../../../../src/infrastructure/persistence/sql';

const POLICY = { alone: 2, windowMs: 60_000, settleMs: 60_000, followUpMs: 60_000, quietMs: 1_800_000 };

/**
 * The storm and fallback statements raced on the real tables, as several workers would run them:
 * each write is guarded in its own statement, so racing copies write it once.
 */
describe('storms and fallbacks under racing workers (PostgreSQL)', () => {
  async function aSetup(label: string) {
    const { database } = await testServer();
    const org = await anOrganization(label);
    const customer = await aMonitoredCustomer(org.token);
    const created = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: label, type: 'webhook', config: { url: 'https://hooks.race-fixture.com/a' } },
    });
    expect(created.status).to.equal(201);
    const [row] = await database.sql.query<{ id: number }>(
      sql`SELECT id FROM notification_channels WHERE public_id = ${created.body.publicId}`,
    );
    const channel = { id: row!.id, publicId: created.body.publicId as string, type: 'webhook' };
    const events = new OutboxIncidentEvents(standalone(database.sql));
    /** `n` incidents opened (the `from`th on, of `customerId`): the organization's events still unrouted. */
    const publish = async (n: number, from = 0, customerId = customer.id) => {
      for (let i = from; i < from + n; i += 1) {
        await events.publish({
          kind: 'incidentOpened',
          organizationId: org.user.organizationId,
          customerId,
          monitorId: i + 1,
          incidentPublicId: `${label}-${i}`,
          occurredAt: new Date(),
          summary: `site ${i} is down`,
          data: {},
        });
      }
      const unrouted = await new SqlDeliveryLedger(database.sql).unroutedEvents(['incidentOpened'], 1000);
      return unrouted.filter((e) => e.organizationId === org.user.organizationId);
    };
    const deliveries = () =>
      database.sql.query<{ event: string; fallback_of: string | null }>(
        sql`SELECT event, fallback_of FROM notification_deliveries WHERE organization_id = ${org.user.organizationId} ORDER BY created_at`,
      );
    return { sql: database.sql, org, customer, channel, publish, deliveries };
  }

  /** The routes of a customer's events through its storm from `state`, at `at`, as RouteOutboxEvents decides them. */
  function decide(state: CustomerStorm, events: OutboxEvent[], channel: { id: number; publicId: string; type: string }, at: Date) {
    const routes: StormRoute[] = events.map((event) => {
      const step = routeInStorm(state, { kind: 'incident.opened', incidentId: event.incidentId, at: at.getTime() }, POLICY);
      state = step.state;
      return {
        event,
        channels: [channel],
        decision: step.decision,
        message: {
          event: 'incident.opened',
          occurredAt: event.occurredAt,
          summary: event.summary,
          incidentId: event.incidentId,
          monitorId: event.monitorId,
          customerId: event.customerId,
          data: {},
        },
      };
    });
    const due = stormDueAt(state, POLICY);
    return { state, routes, dueAt: due === null ? null : new Date(due) };
  }

  /**
   * A customer's storm routed from five failures (two alone, three held), and the moment after its
   * window when it is due: the ledger, the customer, and its due storms (`mine`).
   */
  async function aStormHoldingThree(label: string) {
    const setup = await aSetup(label);
    const storms = new SqlStormLedger(setup.sql);
    const [organizationId, customerId] = [setup.org.user.organizationId, setup.customer.id];
    const mine = (list: Awaited<ReturnType<SqlStormLedger['dueStorms']>>) => list.filter((d) => d.organizationId === organizationId);
    const at = new Date();
    const first = decide(CALM, await setup.publish(5), setup.channel, at);
    expect(await storms.route(organizationId, customerId, 0, first.state, first.dueAt, first.routes, at)).to.equal(true);
    const later = new Date(at.getTime() + POLICY.windowMs);
    /** Tells `due` (as read) at `later`: a digest to the channel; whether it was written. */
    const tellDigest = (due: DueStorm) => {
      const next = tellStorm(due.state, later.getTime(), POLICY);
      const nextDue = stormDueAt(next.state, POLICY);
      const digest = {
        event: 'incident.digest' as const,
        occurredAt: later.toISOString(),
        summary: 'down',
        incidentId: null,
        monitorId: null,
        customerId,
        data: { stage: next.stage },
      };
      return storms.tell(
        due,
        next.state,
        nextDue === null ? null : new Date(nextDue),
        [{ channel: setup.channel, message: digest }],
        later,
      );
    };
    return { setup, storms, organizationId, customerId, mine, later, tellDigest };
  }

  it("three routers of one customer's events from one read: one writes (two alone, four held), the others nothing", async () => {
    const setup = await aSetup('storm-race');
    const storms = new SqlStormLedger(setup.sql);
    const events = await setup.publish(6);
    const at = new Date();
    const read = await storms.storm(setup.org.user.organizationId, setup.customer.id);
    expect(read).to.deep.equal({ state: CALM, version: 0 });
    const { state, routes, dueAt } = decide(read.state, events, setup.channel, at);
    const written = await Promise.all(
      [1, 2, 3].map(() => storms.route(setup.org.user.organizationId, setup.customer.id, 0, state, dueAt, routes, at)),
    );
    expect(written.filter(Boolean)).to.have.length(1);
    expect((await setup.deliveries()).map((d) => d.event)).to.deep.equal(['incident.opened', 'incident.opened']);
    const stored = await storms.storm(setup.org.user.organizationId, setup.customer.id);
    expect(stored.version).to.equal(1);
    expect(stored.state.storm).to.deep.include({ total: 6, toldAt: null });
    const [held] = await setup.sql.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM notification_outbox o WHERE o.organization_id = ${setup.org.user.organizationId} AND ${raw(UNTOLD_HELD)}`,
    );
    expect(held!.n).to.equal(4);
    // A router that read the old version, or routes an event already routed, writes nothing, not even the state.
    expect(await storms.route(setup.org.user.organizationId, setup.customer.id, 1, CALM, null, routes.slice(0, 1), at)).to.equal(false);
    expect((await storms.storm(setup.org.user.organizationId, setup.customer.id)).version).to.equal(1);
  });

  it("a router whose customer's storm another router is writing waits for that commit, then writes nothing", async () => {
    const setup = await aSetup('storm-wait');
    const storms = new SqlStormLedger(setup.sql);
    const [organizationId, customerId] = [setup.org.user.organizationId, setup.customer.id];
    const events = await setup.publish(3);
    const at = new Date();
    const first = decide(CALM, events.slice(0, 1), setup.channel, at);
    expect(await storms.route(organizationId, customerId, 0, first.state, first.dueAt, first.routes, at)).to.equal(true);
    const rest = decide(first.state, events.slice(1), setup.channel, at);
    const other = new pg.Client({ connectionString: (await testDatabase()).url });
    await other.connect();
    try {
      // Another router's write of the same storm and events, not committed yet.
      await other.query('BEGIN');
      await other.query('UPDATE notification_storms SET version = version + 1 WHERE organization_id = $1 AND customer_id = $2', [
        organizationId,
        customerId,
      ]);
      await other.query('UPDATE notification_outbox SET routed_at = now() WHERE id = ANY($1::bigint[])', [
        rest.routes.map((r) => r.event.id),
      ]);
      const racing = storms.route(organizationId, customerId, 1, rest.state, rest.dueAt, rest.routes, at);
      const waiting = await Promise.race([racing.then(() => 'written'), sleep(300).then(() => 'waiting')]);
      expect(waiting).to.equal('waiting');
      await other.query('COMMIT');
      expect(await racing).to.equal(false);
    } finally {
      await other.end();
    }
    expect((await storms.storm(organizationId, customerId)).version).to.equal(2);
    expect((await setup.deliveries()).map((d) => d.event)).to.deep.equal(['incident.opened']);
  });

  it('two routers of the same customers named in opposite orders: each storm written once, no deadlock', async () => {
    const setup = await aSetup('storm-cross');
    const storms = new SqlStormLedger(setup.sql);
    const organizationId = setup.org.user.organizationId;
    const second = await aMonitoredCustomer(setup.org.token);
    const customers = [setup.customer.id, second.id];
    const at = new Date();
    for (let round = 0; round < 8; round += 1) {
      const writes = [];
      for (const [k, customerId] of customers.entries()) {
        const events = (await setup.publish(2, k * 100 + round * 2, customerId)).filter((e) => e.customerId === customerId);
        const read = await storms.storm(organizationId, customerId);
        const { state, routes, dueAt } = decide(read.state, events, setup.channel, at);
        writes.push({ organizationId, customerId, version: read.version, next: state, dueAt, routes });
      }
      const [forward, backward] = await Promise.all([storms.routeAll(writes, at), storms.routeAll([...writes].reverse(), at)]);
      expect([forward[0]! !== backward[1]!, forward[1]! !== backward[0]!]).to.deep.equal([true, true]);
    }
    for (const customerId of customers) expect((await storms.storm(organizationId, customerId)).version).to.equal(8);
    const [routed] = await setup.sql.query<{ unrouted: number; deliveries: number }>(
      sql`SELECT count(*) FILTER (WHERE routed_at IS NULL)::int AS unrouted,
                 (SELECT count(*)::int FROM notification_deliveries d WHERE d.organization_id = ${organizationId}) AS deliveries
            FROM notification_outbox WHERE organization_id = ${organizationId}`,
    );
    // Each customer's first two failures alone (POLICY.alone), the rest held: each event routed once.
    expect(routed).to.deep.equal({ unrouted: 0, deliveries: 4 });
  });

  it('three tellers of a due storm: one message, its held events told once; a teller of a stale read writes nothing', async () => {
    const setup = await aSetup('storm-tell');
    const storms = new SqlStormLedger(setup.sql);
    const at = new Date();
    const { state, routes, dueAt } = decide(CALM, await setup.publish(5), setup.channel, at);
    expect(await storms.route(setup.org.user.organizationId, setup.customer.id, 0, state, dueAt, routes, at)).to.equal(true);
    const mine = (list: Awaited<ReturnType<SqlStormLedger['dueStorms']>>) =>
      list.filter((d) => d.organizationId === setup.org.user.organizationId);
    expect(mine(await storms.dueStorms(at, 1000)), 'gathering for the window').to.deep.equal([]);
    const soonest = await storms.nextDueAt();
    expect(soonest, 'the soonest storm due, for the waiting worker: this one or an earlier').to.be.instanceOf(Date);
    expect(soonest!.getTime()).to.be.at.most(dueAt!.getTime());
    const later = new Date(at.getTime() + POLICY.windowMs);
    const [due] = mine(await storms.dueStorms(later, 1000));
    expect(due!.held.map((e) => e.heldKind)).to.deep.equal(['incident.opened', 'incident.opened', 'incident.opened']);
    expect(due!.customerName)
      .to.be.a('string')
      .and.not.match(/^customer \d+$/);
    const next = tellStorm(due!.state, later.getTime(), POLICY);
    expect(next.stage).to.equal('started');
    const message = {
      event: 'incident.digest' as const,
      occurredAt: later.toISOString(),
      summary: '5 down',
      incidentId: null,
      monitorId: null,
      customerId: setup.customer.id,
      data: { stage: 'started' },
    };
    const nextDue = stormDueAt(next.state, POLICY);
    const told = await Promise.all(
      [1, 2, 3].map(() =>
        storms.tell(due!, next.state, nextDue === null ? null : new Date(nextDue), [{ channel: setup.channel, message }], later),
      ),
    );
    expect(told.filter(Boolean)).to.have.length(1);
    expect((await setup.deliveries()).map((d) => d.event)).to.deep.equal(['incident.opened', 'incident.opened', 'incident.digest']);
    expect(mine(await storms.dueStorms(later, 1000)), 'next due: the quiet end').to.deep.equal([]);
    expect(await storms.tell(due!, next.state, null, [{ channel: setup.channel, message }], later)).to.equal(false);
    // Rescheduled with no events (settings changed): the state and its due time alone, at the version read.
    const { version } = await storms.storm(setup.org.user.organizationId, setup.customer.id);
    expect(await storms.route(setup.org.user.organizationId, setup.customer.id, version, next.state, later, [], later)).to.equal(true);
    expect(await storms.route(setup.org.user.organizationId, setup.customer.id, version, next.state, later, [], later)).to.equal(false);
    expect(mine(await storms.dueStorms(later, 1000)).map((d) => [d.version, d.held.length])).to.deep.equal([[version + 1, 0]]);
  });

  it('a teller tells the failures held up to the storm it read: those held after it wait for the next message', async () => {
    const { setup, storms, organizationId, customerId, mine, later, tellDigest } = await aStormHoldingThree('storm-mark');
    const [read] = mine(await storms.dueStorms(later, 1000));
    expect(read!.held).to.have.length(3);
    // Two more failures held after the teller read its storm: its message is refused, they are in the next read.
    const more = decide(read!.state, await setup.publish(2, 5), setup.channel, later);
    expect(more.routes.map((r) => r.decision)).to.deep.equal(['held', 'held']);
    expect(await storms.route(organizationId, customerId, read!.version, more.state, more.dueAt, more.routes, later)).to.equal(true);
    expect(await tellDigest(read!)).to.equal(false);
    const [again] = mine(await storms.dueStorms(later, 1000));
    expect(again!.held.map((e) => e.incidentId)).to.deep.equal([
      'storm-mark-2',
      'storm-mark-3',
      'storm-mark-4',
      'storm-mark-5',
      'storm-mark-6',
    ]);
    expect(await tellDigest(again!)).to.equal(true);
    const untold = () =>
      setup.sql.query<{ id: string }>(
        sql`SELECT o.id::text FROM notification_outbox o WHERE o.organization_id = ${organizationId} AND ${raw(UNTOLD_HELD)}`,
      );
    expect(await untold()).to.deep.equal([]);
    // A failure after the digest is held for the follow-up, and it alone is untold.
    const stored = await storms.storm(organizationId, customerId);
    const late = decide(stored.state, await setup.publish(1, 7), setup.channel, later);
    expect(late.routes.map((r) => r.decision)).to.deep.equal(['held']);
    expect(await storms.route(organizationId, customerId, stored.version, late.state, late.dueAt, late.routes, later)).to.equal(true);
    expect((await untold()).map((row) => Number(row.id))).to.deep.equal([late.routes[0]!.event.id]);
    const [followUp] = mine(await storms.dueStorms(new Date(later.getTime() + POLICY.followUpMs + POLICY.windowMs), 1000));
    expect(followUp!.held.map((e) => e.incidentId)).to.deep.equal(['storm-mark-7']);
  });

  it('a read given what was read at an older version reads only what was held since; what was told since is not reused', async () => {
    const { setup, storms, organizationId, customerId, mine, later, tellDigest } = await aStormHoldingThree('storm-ahead');
    const [ahead] = mine(await storms.dueStorms(later, 1000));
    expect(ahead!.held.map((e) => e.incidentId)).to.deep.equal(['storm-ahead-2', 'storm-ahead-3', 'storm-ahead-4']);
    const more = decide(ahead!.state, await setup.publish(2, 5), setup.channel, later);
    expect(await storms.route(organizationId, customerId, ahead!.version, more.state, more.dueAt, more.routes, later)).to.equal(true);
    // Given as known without its first event: a read of every held event would bring it back.
    const known = { version: ahead!.version, held: ahead!.held.slice(1) };
    const [due] = mine(await storms.dueStorms(later, 1000, () => known));
    expect(due!.version).to.equal(ahead!.version + 1);
    expect(due!.held.map((e) => e.incidentId)).to.deep.equal(['storm-ahead-3', 'storm-ahead-4', 'storm-ahead-5', 'storm-ahead-6']);
    const [whole] = mine(await storms.dueStorms(later, 1000));
    expect(whole!.held, 'without it, every held event').to.have.length(5);
    // Told: what was read before is below its told version, and only the failure held after is read.
    expect(await tellDigest(whole!)).to.equal(true);
    const stored = await storms.storm(organizationId, customerId);
    const late = decide(stored.state, await setup.publish(1, 7), setup.channel, later);
    expect(await storms.route(organizationId, customerId, stored.version, late.state, late.dueAt, late.routes, later)).to.equal(true);
    const followUpAt = new Date(later.getTime() + POLICY.followUpMs + POLICY.windowMs);
    const [followUp] = mine(await storms.dueStorms(followUpAt, 1000, () => ({ version: whole!.version, held: whole!.held })));
    expect(followUp!.held.map((e) => e.incidentId)).to.deep.equal(['storm-ahead-7']);
    expect(followUp!.dueAt.getTime()).to.be.at.most(followUpAt.getTime());
  });

  it('racing fallbacks and announcements write one copy and one channel.failing', async () => {
    const setup = await aSetup('fallback-race');
    const health = new SqlChannelHealthLedger(setup.sql);
    const created = await api('POST', '/api/notification-channels', {
      token: setup.org.token,
      body: { name: 'noc', type: 'email', config: { recipients: ['noc@example.com'] }, events: ['maintenance.ended'], isDefault: true },
    });
    const [row] = await setup.sql.query<{ id: number }>(
      sql`SELECT id FROM notification_channels WHERE public_id = ${created.body.publicId}`,
    );
    const target = { id: row!.id, publicId: created.body.publicId as string, type: 'email' };
    const [event] = await setup.publish(1);
    await new SqlDeliveryLedger(setup.sql).route(
      event!,
      [setup.channel],
      {
        event: 'incident.opened',
        occurredAt: event!.occurredAt,
        summary: 's',
        incidentId: null,
        monitorId: null,
        customerId: null,
        data: {},
      },
      new Date(),
    );
    await setup.sql.query(
      sql`UPDATE notification_deliveries SET status = 'failed', fallback_due = true WHERE channel_public_id = ${setup.channel.publicId}`,
    );
    await setup.sql.query(sql`UPDATE notification_channels SET consecutive_failures = 3 WHERE id = ${setup.channel.id}`);

    const [due] = (await health.fallbacksDue(1000)).filter((d) => d.organizationId === setup.org.user.organizationId);
    expect(due!.channelId).to.equal(setup.channel.id);
    expect((await Promise.all([1, 2, 3].map(() => health.fallBack(due!, target, new Date())))).filter(Boolean)).to.have.length(1);
    const [failing] = (await health.failingUnannounced(3, 1000)).filter((c) => c.organizationId === setup.org.user.organizationId);
    const message = channelFailingMessage(failing!, failing!, new Date());
    expect(
      (await Promise.all([1, 2, 3].map(() => health.announceFailing(failing!, 3, target, message, new Date())))).filter(Boolean),
    ).to.have.length(1);
    const rows = await setup.deliveries();
    expect(rows.map((d) => d.event)).to.deep.equal(['incident.opened', 'incident.opened', 'channel.failing']);
    expect(rows[1]!.fallback_of).to.be.a('string');
    expect((await health.failingUnannounced(3, 1000)).filter((c) => c.organizationId === setup.org.user.organizationId)).to.deep.equal([]);
  });
});
