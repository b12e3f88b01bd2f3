import { expect } from 'chai';
import { FaultRig, mustCall, signUpAt, type RunningService } from '../support/fault-rig';
import { aSwitchableTarget, HoldingWebhookReceiver, stormCustomers, type ReceivedHook, type StormCustomer } from '../support/storm-peers';
import { waitFor } from '../support/wait-for';

const CUSTOMERS = 2;
const PER_CUSTOMER = 20;
const MONITORS = CUSTOMERS * PER_CUSTOMER;
/** Incidents of a customer told alone before its storm starts (NOTIFY_DIGEST_AFTER). */
const ALONE = 3;

/**
 * SIGKILL mid-storm: 40 one-minute websites of two customers behind one loopback target, checked by
 * the real process, and an organization webhook channel. The target goes down and every monitor is
 * checked twice at once: 40 incidents open together, each customer's first three told alone, the
 * rest held for its storm's digest. The receiver answers nothing until the end, so every delivery
 * is in flight, never recorded as delivered, when its process dies. The first process is killed
 * once every incident is recorded and the first message reached the receiver (the alone messages
 * sent, the storms not told); the second once it sent a digest; a third finishes. Then every
 * incident is told once, in its incident.opened or listed in a digest, by one delivery (X-Webhook-Id):
 * a delivery sent again after a kill comes under the same id with the same body; no incident is told
 * by two deliveries, none is opened twice, and each customer still got exactly three alone.
 */
describe('SIGKILL mid-storm', function () {
  this.timeout(240_000);
  let rig: FaultRig;
  let target: Awaited<ReturnType<typeof aSwitchableTarget>>;
  let receiver: HoldingWebhookReceiver;

  before(async () => {
    target = await aSwitchableTarget();
    receiver = await new HoldingWebhookReceiver().start();
    rig = await FaultRig.create('storm', {
      NOTIFY_POLL_MS: '100',
      NOTIFY_RETRY_BASE_MS: '200',
      NOTIFY_RETRY_MAX_MS: '1000',
      // A dead process's deliveries are taken up 4 s after it claimed them (webhook sends here take milliseconds).
      NOTIFY_LEASE_MS: '4000',
      NOTIFY_DIGEST_AFTER: String(ALONE),
      NOTIFY_DIGEST_WINDOW_SECONDS: '30',
      NOTIFY_STORM_SETTLE_SECONDS: '3',
      NOTIFY_STORM_FOLLOW_UP_SECONDS: '2',
    });
  });
  after(async () => {
    await rig?.close();
    await receiver?.stop();
    await target?.close();
  });

  it('tells every incident once across two kills: none lost, none told by two deliveries, none opened twice', async () => {
    const first = await rig.start('first');
    const admin = await signUpAt(first.url, 'storm');
    const customers = await stormCustomers(first.url, admin.token, target.url, CUSTOMERS, PER_CUSTOMER);
    const monitors = customers.flatMap((c) => c.monitors);
    const channel = await mustCall(first.url, 'POST', '/api/notification-channels', 201, {
      token: admin.token,
      body: { name: 'on-call hook', type: 'webhook', config: { url: receiver.url }, events: ['incident.opened', 'incident.resolved'] },
    });
    const resultsOf = async () =>
      new Map(
        (await rig.sql<{ monitor_id: string; n: string }>(`SELECT monitor_id, count(*) AS n FROM check_results GROUP BY monitor_id`)).map(
          (r) => [Number(r.monitor_id), Number(r.n)],
        ),
      );
    /** Every monitor checked now (through `at`), each answered 202; waits until each has one result more. */
    const checkAll = async (at: RunningService) => {
      const before = await resultsOf();
      await Promise.all(
        monitors.map((m) => mustCall(at.url, 'POST', `/api/websites/${m.publicId}/trigger-check`, 202, { token: admin.token })),
      );
      await waitFor(
        async () => {
          const now = await resultsOf();
          return monitors.every((m) => (now.get(m.id) ?? 0) > (before.get(m.id) ?? 0));
        },
        { timeoutMs: 30_000, what: 'every monitor checked' },
      );
    };
    const incidents = () =>
      rig.sql<{ public_id: string; monitor_id: string; customer_id: number; status: string }>(
        `SELECT public_id::text, monitor_id, customer_id, status FROM incidents WHERE organization_id = $1`,
        [admin.organizationId],
      );
    const deliveries = () =>
      rig.sql<{ id: string; incident_id: string | null; event: string; status: string }>(
        `SELECT id::text, incident_id, event, status FROM notification_deliveries WHERE channel_public_id = $1`,
        [channel.publicId],
      );

    // Up first, then the target goes down and every monitor fails twice in a row: a storm of 40.
    await checkAll(first);
    expect(await incidents()).to.deep.equal([]);
    target.goDown();
    await checkAll(first);
    await Promise.all(
      monitors.map((m) => mustCall(first.url, 'POST', `/api/websites/${m.publicId}/trigger-check`, 202, { token: admin.token })),
    );
    await waitFor(async () => receiver.received.length > 0 && (await incidents()).length === MONITORS, {
      timeoutMs: 30_000,
      everyMs: 10,
      what: 'every incident recorded and the first message sent',
    });
    await rig.kill(first);
    const atFirstKill = receiver.received.length;
    expect(
      (await deliveries()).filter((d) => d.status === 'delivered'),
      'nothing recorded as delivered',
    ).to.deep.equal([]);

    // The second process takes the storms up: it sends the dead one's deliveries again and tells the storms.
    const second = await rig.start('second');
    await waitFor(() => receiver.received.slice(atFirstKill).some((hook) => hook.body?.event === 'incident.digest'), {
      timeoutMs: 60_000,
      everyMs: 10,
      what: 'a storm digest sent by the second process',
    });
    await rig.kill(second);
    expect(
      (await deliveries()).filter((d) => d.status === 'delivered'),
      'nothing recorded as delivered',
    ).to.deep.equal([]);

    // The third process finishes, its receiver answering.
    receiver.holding = false;
    const third = await rig.start('third');
    const opened = await incidents();
    const toldOf = (hooks: readonly ReceivedHook[]) =>
      hooks.flatMap((hook): string[] =>
        hook.body?.event === 'incident.opened'
          ? [hook.body.incident.id as string]
          : hook.body?.event === 'incident.digest'
            ? (hook.body.data.incidents as Array<{ incidentId: string; change: string }>)
                .filter((i) => i.change === 'opened')
                .map((i) => i.incidentId)
            : [],
      );
    await waitFor(
      async () => {
        const told = new Set(toldOf(receiver.received));
        const pending = (await deliveries()).filter((d) => d.status !== 'delivered');
        const [untold] = await rig.sql<{ n: string }>(
          `SELECT count(*) AS n FROM notification_outbox WHERE organization_id = $1 AND kind = 'incidentOpened'
              AND (routed_at IS NULL OR (held_until IS NOT NULL AND digest_id IS NULL))`,
          [admin.organizationId],
        );
        return opened.every((i) => told.has(i.public_id)) && pending.length === 0 && Number(untold!.n) === 0;
      },
      { timeoutMs: 60_000, everyMs: 100, what: 'every incident told and every delivery recorded as delivered' },
    );
    // Nothing more comes.
    const settled = receiver.received.length;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(receiver.received.length, 'nothing sent once everything was delivered').to.equal(settled);

    // One incident per monitor: the outage opened each once, across the kills.
    const final = await incidents();
    expect(final.map((i) => Number(i.monitor_id)).sort((a, b) => a - b)).to.deep.equal(monitors.map((m) => m.id).sort((a, b) => a - b));
    expect(final.every((i) => i.status === 'open')).to.equal(true);

    // A delivery sent more than once came under its one id with the same body (at least once, idempotent).
    const byId = receiver.byId();
    for (const [id, hooks] of byId) expect(new Set(hooks.map((h) => h.text)).size, `delivery ${id} sent with one body`).to.equal(1);
    // Each delivery received is one of the channel's, delivered; every one of them was received.
    const rows = await deliveries();
    expect([...byId.keys()].sort()).to.deep.equal(rows.map((d) => d.id).sort());
    // Every incident told by exactly one delivery.
    const deliveriesOf = new Map<string, Set<string>>();
    for (const [id, hooks] of byId)
      for (const incident of toldOf(hooks.slice(0, 1))) deliveriesOf.set(incident, (deliveriesOf.get(incident) ?? new Set()).add(id));
    const twice = [...deliveriesOf].filter(([, ids]) => ids.size > 1).map(([incident, ids]) => `${incident}: ${[...ids].join(', ')}`);
    expect(twice, 'incidents told by two deliveries').to.deep.equal([]);
    expect([...deliveriesOf.keys()].sort(), 'every incident told').to.deep.equal(final.map((i) => i.public_id).sort());
    // Each customer: three alone, the rest in its storm's messages.
    for (const customer of customers) {
      const alone = [...byId.values()].filter(
        (hooks) => hooks[0]!.body.event === 'incident.opened' && hooks[0]!.body.customer.id === customer.id,
      );
      expect(alone, `customer ${customer.id}'s alone messages`).to.have.length(ALONE);
    }
    summarize(receiver, atFirstKill, customers);
    await rig.kill(third);
  });
});

/** What the receiver saw, for the run's record. */
function summarize(receiver: HoldingWebhookReceiver, atFirstKill: number, customers: readonly StormCustomer[]): void {
  const kinds = [...receiver.byId().values()].map(
    (hooks) => `${hooks[0]!.body.event}${hooks[0]!.body.data?.stage ? `/${hooks[0]!.body.data.stage}` : ''} x${hooks.length}`,
  );
  console.log(
    `    ${customers.length} customers; ${receiver.received.length} POSTs (${atFirstKill} before the first kill): ${kinds.join(', ')}`,
  );
}
