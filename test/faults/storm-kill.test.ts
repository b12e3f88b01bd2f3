import { expect } from 'chai';
import { FaultRig, mustCall, signUpAt, type RunningService } from '../support/fault-rig';
import { aSwitchableTarget, HoldingWebhookReceiver, stormCustomers } from '../support/storm-peers';
import { logLines } from '../support/service-process';
import { waitFor } from '../support/wait-for';
import { UNTOLD_HELD } from '../support/outbox-events';

const CUSTOMERS = 2;
const PER_CUSTOMER = 20;
const MONITORS = CUSTOMERS * PER_CUSTOMER;
/** Of each customer's monitors, the last LATE are behind a second target, which goes down after the kills. */
const LATE = 4;
/** Incidents of a customer told alone before its storm starts (NOTIFY_DIGEST_AFTER). */
const ALONE = 3;

type Monitor = { id: number; publicId: string };

/**
 * SIGKILL mid-storm: 40 one-minute websites of two customers, checked by the real process, and an
 * organization webhook channel whose receiver answers nothing until the end (every delivery is in
 * flight, never recorded as delivered, when its process dies). 32 of them are behind one loopback
 * target, which goes down: each is checked twice at once and 32 incidents open together, each
 * customer's first three told alone, the rest held for its storm's digest. The first process is
 * killed once those incidents are recorded and the first message reached the receiver (mid-routing
 * or just after it: the alone messages in flight, the storms not told); the second once it sent the
 * storms' digests; a third finishes, its receiver answering. Then the last 8 monitors' target goes
 * down: their incidents join the storms the dead processes left (held, told in a follow-up).
 * Every incident is then told once, in its incident.opened or listed in a digest, by one delivery
 * (X-Webhook-Id): a delivery sent again after a kill comes under the same id with the same body; no
 * incident is told by two deliveries, none is opened twice, and each customer got exactly three alone.
 */
describe('SIGKILL mid-storm', function () {
  this.timeout(240_000);
  let rig: FaultRig;
  let early: Awaited<ReturnType<typeof aSwitchableTarget>>;
  let late: Awaited<ReturnType<typeof aSwitchableTarget>>;
  let receiver: HoldingWebhookReceiver;

  before(async () => {
    early = await aSwitchableTarget();
    late = await aSwitchableTarget();
    receiver = await new HoldingWebhookReceiver().start();
    rig = await FaultRig.create('storm', {
      NOTIFY_POLL_MS: '100',
      NOTIFY_RETRY_BASE_MS: '200',
      NOTIFY_RETRY_MAX_MS: '1000',
      // A dead process's deliveries are taken up 4 s after it claimed them (webhook sends here take milliseconds).
      NOTIFY_LEASE_MS: '4000',
      NOTIFY_DIGEST_AFTER: String(ALONE),
      // Failures joining within the window after a storm's digest are told as soon as they settle.
      NOTIFY_DIGEST_WINDOW_SECONDS: '120',
      NOTIFY_STORM_SETTLE_SECONDS: '3',
      NOTIFY_STORM_FOLLOW_UP_SECONDS: '2',
    });
  });
  after(async () => {
    await rig?.close();
    await receiver?.stop();
    await early?.close();
    await late?.close();
  });

  it('tells every incident once across two kills: none lost, none told by two deliveries, none opened twice', async () => {
    const first = await rig.start('first');
    const admin = await signUpAt(first.url, 'storm');
    const customers = await stormCustomers(
      first.url,
      admin.token,
      (_c, i) => (i < PER_CUSTOMER - LATE ? early.url : late.url),
      CUSTOMERS,
      PER_CUSTOMER,
    );
    const monitors = customers.flatMap((c) => c.monitors);
    const lateOnes = customers.flatMap((c) => c.monitors.slice(PER_CUSTOMER - LATE));
    const earlyOnes = monitors.filter((m) => !lateOnes.includes(m));
    const channel = await mustCall(first.url, 'POST', '/api/notification-channels', 201, {
      token: admin.token,
      body: { name: 'on-call hook', type: 'webhook', config: { url: receiver.url }, events: ['incident.opened', 'incident.resolved'] },
    });
    const trigger = (at: RunningService, list: readonly Monitor[]) =>
      Promise.all(list.map((m) => mustCall(at.url, 'POST', `/api/websites/${m.publicId}/trigger-check`, 202, { token: admin.token })));
    const resultsOf = async () =>
      new Map(
        (await rig.sql<{ monitor_id: string; n: string }>(`SELECT monitor_id, count(*) AS n FROM check_results GROUP BY monitor_id`)).map(
          (r) => [Number(r.monitor_id), Number(r.n)],
        ),
      );
    /** Every monitor of `list` checked now, at once; waits until each has one result more. */
    const checkAll = async (at: RunningService, list: readonly Monitor[]) => {
      const before = await resultsOf();
      await trigger(at, list);
      await waitFor(
        async () => {
          const now = await resultsOf();
          return list.every((m) => (now.get(m.id) ?? 0) > (before.get(m.id) ?? 0));
        },
        { timeoutMs: 30_000, what: 'every monitor checked' },
      );
    };
    const incidents = () =>
      rig.sql<{ public_id: string; monitor_id: string; status: string }>(
        `SELECT public_id::text, monitor_id, status FROM incidents WHERE organization_id = $1`,
        [admin.organizationId],
      );
    const deliveries = () =>
      rig.sql<{ id: string; status: string }>(`SELECT id::text, status FROM notification_deliveries WHERE channel_public_id = $1`, [
        channel.publicId,
      ]);
    const delivered = async () => (await deliveries()).filter((d) => d.status === 'delivered');
    /** Where the incidents' openings stand in the outbox (for the run's record). */
    const outbox = async () => {
      const [row] = await rig.sql<Record<string, string>>(
        `SELECT count(*) FILTER (WHERE routed_at IS NULL) AS unrouted, count(*) FILTER (WHERE routed_at IS NOT NULL AND held_until IS NULL) AS alone,
                count(*) FILTER (WHERE ${UNTOLD_HELD}) AS held, count(*) FILTER (WHERE o.held_until IS NOT NULL AND NOT (${UNTOLD_HELD})) AS digested
           FROM notification_outbox o WHERE organization_id = $1 AND kind = 'incidentOpened'`,
        [admin.organizationId],
      );
      return `openings unrouted ${row!.unrouted}, alone ${row!.alone}, held ${row!.held}, in a digest ${row!.digested}; ${receiver.received.length} POSTs received`;
    };
    const notes: string[] = [];

    // Up first; then the first target goes down and its monitors fail twice in a row: a storm of 32.
    await checkAll(first, monitors);
    expect(await incidents()).to.deep.equal([]);
    early.goDown();
    await checkAll(first, earlyOnes);
    await trigger(first, earlyOnes);
    await waitFor(async () => receiver.received.length > 0 && (await incidents()).length === earlyOnes.length, {
      timeoutMs: 30_000,
      everyMs: 10,
      what: 'the incidents recorded and the first message sent',
    });
    await rig.kill(first);
    const atFirstKill = receiver.received.length;
    notes.push(`first kill: ${await outbox()}`);
    expect(await delivered(), 'nothing recorded as delivered').to.deep.equal([]);

    // The second process takes the storms up: it sends the dead one's deliveries again and tells the storms.
    const second = await rig.start('second');
    const digestsSince = (index: number) =>
      new Set(receiver.received.slice(index).flatMap((hook) => (hook.body?.event === 'incident.digest' ? [hook.body.customer.id] : [])));
    await waitFor(() => digestsSince(atFirstKill).size === CUSTOMERS, {
      timeoutMs: 60_000,
      everyMs: 10,
      what: "each customer's storm digest sent by the second process",
    });
    await rig.kill(second);
    notes.push(`second kill: ${await outbox()}`);
    expect(await delivered(), 'nothing recorded as delivered').to.deep.equal([]);

    // The third process finishes, its receiver answering; then the late monitors fail and join the storms.
    receiver.holding = false;
    const third = await rig.start('third');
    late.goDown();
    // Triggered again until each has its incident: the dead worker's rows run once the third process took them over.
    await waitFor(
      async () => {
        const open = new Set((await incidents()).map((i) => Number(i.monitor_id)));
        const waiting = lateOnes.filter((m) => !open.has(m.id));
        if (waiting.length > 0) await trigger(third, waiting);
        return waiting.length === 0;
      },
      { timeoutMs: 60_000, everyMs: 2_000, what: "the late monitors' incidents" },
    );
    const opened = await incidents();
    /** The incidents these webhook bodies tell of as opened: an incident.opened's, a digest's listed openings. */
    const toldOf = (bodies: readonly any[]) =>
      bodies.flatMap((body): string[] =>
        body?.event === 'incident.opened'
          ? [body.incident.id as string]
          : body?.event === 'incident.digest'
            ? (body.data.incidents as Array<{ incidentId: string; change: string }>)
                .filter((i) => i.change === 'opened')
                .map((i) => i.incidentId)
            : [],
      );
    await explained(
      () =>
        waitFor(
          async () => {
            const told = new Set(toldOf(receiver.received.map((hook) => hook.body)));
            const [untold] = await rig.sql<{ n: string }>(
              `SELECT count(*) AS n FROM notification_outbox o WHERE organization_id = $1 AND kind = 'incidentOpened'
              AND (routed_at IS NULL OR (${UNTOLD_HELD}))`,
              [admin.organizationId],
            );
            const all = await deliveries();
            return opened.every((i) => told.has(i.public_id)) && Number(untold!.n) === 0 && (await delivered()).length === all.length;
          },
          { timeoutMs: 60_000, everyMs: 100, what: 'every incident told and every delivery recorded as delivered' },
        ),
      async () => {
        const told = new Set(toldOf(receiver.received.map((hook) => hook.body)));
        const untoldIncidents = opened.filter((i) => !told.has(i.public_id)).map((i) => i.public_id);
        const pending = await rig.sql(
          `SELECT id::text, event, status, attempts, next_attempt_at, lease_owner, lease_until, last_error, now() AS at
             FROM notification_deliveries WHERE channel_public_id = $1 AND status <> 'delivered'`,
          [channel.publicId],
        );
        const outboxLeft = await rig.sql(
          `SELECT id, kind, routed_at, held_until, held_version FROM notification_outbox o WHERE organization_id = $1
              AND (routed_at IS NULL OR (${UNTOLD_HELD}))`,
          [admin.organizationId],
        );
        const warnings = logLines(third.service).filter((line) => Number(line.level) >= 40);
        return JSON.stringify({ notes, untoldIncidents, pending, outboxLeft, warnings }, null, 1);
      },
    );
    // Nothing more comes.
    const settled = receiver.received.length;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(receiver.received.length, 'nothing sent once everything was delivered').to.equal(settled);

    // One incident per monitor: the outage opened each once, across the kills.
    const final = await incidents();
    expect(final).to.have.length(MONITORS);
    const byNumber = (a: number, b: number) => a - b;
    expect(final.map((i) => Number(i.monitor_id)).sort(byNumber)).to.deep.equal(monitors.map((m) => m.id).sort(byNumber));
    expect(final.every((i) => i.status === 'open')).to.equal(true);

    // A delivery sent more than once came under its one id with the same body (at least once, idempotent).
    const byId = receiver.byId();
    for (const [id, hooks] of byId) expect(new Set(hooks.map((h) => h.text)).size, `delivery ${id} sent with one body`).to.equal(1);
    // Each delivery received is one of the channel's, and every one of them was received.
    expect([...byId.keys()].sort()).to.deep.equal((await deliveries()).map((d) => d.id).sort());
    // Every incident told by exactly one delivery.
    const deliveriesOf = new Map<string, Set<string>>();
    for (const [id, hooks] of byId)
      for (const incident of toldOf([hooks[0]!.body])) deliveriesOf.set(incident, (deliveriesOf.get(incident) ?? new Set()).add(id));
    const twice = [...deliveriesOf].filter(([, ids]) => ids.size > 1).map(([incident, ids]) => `${incident}: ${[...ids].join(', ')}`);
    expect(twice, 'incidents told by two deliveries').to.deep.equal([]);
    expect([...deliveriesOf.keys()].sort(), 'every incident told').to.deep.equal(final.map((i) => i.public_id).sort());
    // Each customer: three alone, the rest in its storm's messages; the late ones in a follow-up of the storm the dead left.
    const firsts = [...byId.values()].map((hooks) => hooks[0]!.body);
    for (const customer of customers) {
      const alone = firsts.filter((body) => body.event === 'incident.opened' && body.customer.id === customer.id);
      expect(alone, `customer ${customer.id}'s alone messages`).to.have.length(ALONE);
    }
    const lateIncidents = new Set(final.filter((i) => lateOnes.some((m) => m.id === Number(i.monitor_id))).map((i) => i.public_id));
    const inUpdates = firsts.filter((body) => body.event === 'incident.digest' && body.data.stage === 'update');
    const toldInUpdates = new Set(toldOf(inUpdates));
    expect(
      [...lateIncidents].filter((id) => !toldInUpdates.has(id)),
      'late incidents not told in a follow-up',
    ).to.deep.equal([]);
    notes.push(`settled: ${summary(receiver)}`);
    console.log(notes.map((note) => `      ${note}`).join('\n'));
    await rig.kill(third);
  });
});

/** What the receiver saw: each delivery's event (and storm stage) and how many times it came. */
function summary(receiver: HoldingWebhookReceiver): string {
  return [...receiver.byId().values()]
    .map((hooks) => `${hooks[0]!.body.event}${hooks[0]!.body.data?.stage ? `/${hooks[0]!.body.data.stage}` : ''} x${hooks.length}`)
    .join(', ');
}

/** Runs `wait`; when it fails, the failure carries what `state` finds (for a run that cannot be watched). */
async function explained<T>(wait: () => Promise<T>, state: () => Promise<string>): Promise<T> {
  try {
    return await wait();
  } catch (error) {
    throw new Error(`${(error as Error).message}; left: ${await state().catch((e: Error) => e.message)}`);
  }
}
