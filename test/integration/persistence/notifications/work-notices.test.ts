import { expect } from 'chai';
import pino from 'pino';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitoredCustomer, aWebsite, storedMonitor } from '../../../support/monitoring-fixtures';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { waitFor } from '../../../support/wait-for';
import { WebhookReceiver } from '../../../support/peers/webhook-receiver';
import { OutboxIncidentEvents } from '../../../support/outbox-events';
import { listenToNotices } from '../../../../src/infrastructure/persistence/pg-notices';
import { wakeJobsOnNotices } from '../../../../src/infrastructure/scheduling/job-wakeups';
import { standalone } from '../../../support/unit-of-work';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const HOOK_HOST = 'hooks.work-notices-fixture.com';
/** Far beyond the test: whatever happens within it, a poll did not do. */
const NEVER_MS = 600_000;
const silent = pino({ level: 'silent' });

/**
 * Wake on work, not on a timer: the notification worker and the jobs woken by `notification_work`
 * (the outbox's and the deliveries' triggers) against real PostgreSQL notices, with polls far
 * beyond the test's length, so only a notice or a due time can explain what happens.
 */
describe('notification work notices: the worker and woken jobs sleep until work arrives', () => {
  const receiver = new WebhookReceiver(HOOK_HOST);
  let service: DeliveryService;
  let counter = 0;

  async function aChannelAndMonitor(label: string, path: string) {
    const org = await anOrganization(label);
    const customer = await aMonitoredCustomer(org.token);
    const website = await aWebsite().forCustomer(customer.id).create(org.token);
    const monitor = await storedMonitor(website.publicId);
    const created = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: label, type: 'webhook', config: { url: receiver.url(path) } },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const opened = () =>
      new OutboxIncidentEvents(standalone(service.app.database.sql)).publish({
        kind: 'incidentOpened',
        organizationId: org.user.organizationId,
        customerId: customer.id,
        monitorId: Number(monitor.id),
        incidentPublicId: `inc-notice-${Date.now()}-${++counter}`,
        occurredAt: new Date(),
        summary: 'www.monitor-fixture.com is down',
        data: { monitorPublicId: website.publicId },
      });
    return { channel: created.body as { publicId: string }, opened };
  }

  before(async () => {
    await receiver.start();
    service = await aDeliveryService([HOOK_HOST], { NOTIFY_DIGEST_WINDOW_SECONDS: '0' });
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await receiver.stop();
  });

  const listen = () => ({
    pollMs: NEVER_MS,
    safetyPollMs: NEVER_MS,
    listen: (handlers: Parameters<typeof listenToNotices>[4]) =>
      listenToNotices(service.app.databaseUrl, 'notification_work', 'notification work', silent, handlers),
  });

  it('delivers an event written while the worker waits within a second or two, with its next poll ten minutes away', async () => {
    const path = `/notice-${Date.now()}`;
    const setup = await aChannelAndMonitor('notice-wakes', path);
    service.worker('notice-worker', true, listen());
    await setup.opened();
    await waitFor(() => receiver.at(path).length === 1, { timeoutMs: 5_000, what: 'the first event delivered' });
    // The worker now waits (nothing due); a second event reaches it only through the outbox's notice.
    const written = Date.now();
    await setup.opened();
    await waitFor(() => receiver.at(path).length === 2, { timeoutMs: 3_000, what: 'the second event delivered on its notice' });
    expect(Date.now() - written, 'woken, not polled').to.be.below(3_000);
  });

  it('sleeps until a failed delivery is due again, then retries it without a notice or a poll', async () => {
    const path = `/notice-retry-${Date.now()}`;
    receiver.answer(path, { status: 500 });
    const setup = await aChannelAndMonitor('notice-retry', path);
    service.worker('retry-worker', true, listen());
    await setup.opened();
    const delivery = await waitFor(
      async () => {
        const [row] = await service.app.database.sql.query<{ status: string; attempts: number }>(
          sql`SELECT status, attempts FROM notification_deliveries WHERE channel_public_id = ${setup.channel.publicId}`,
        );
        return row?.status === 'delivered' ? row : null;
      },
      { timeoutMs: 5_000, what: 'the retry delivered at its due time (back-off 20 ms to 2 s)' },
    );
    expect(delivery!.attempts).to.equal(2);
    expect(receiver.at(path)).to.have.length(2);
  });

  it('runs a job woken by notification_work when an event is written, and a burst of notices about once a second', async () => {
    const runs: number[] = [];
    const stop = await wakeJobsOnNotices(
      service.app.databaseUrl,
      [{ name: 'counting', wakeOn: ['notification_work'], run: async () => void runs.push(Date.now()) }],
      silent,
    );
    try {
      const setup = await aChannelAndMonitor('notice-job', `/notice-job-${Date.now()}`);
      const written = Date.now();
      await setup.opened();
      await waitFor(() => runs.length >= 1, { timeoutMs: 3_000, what: 'the job run on the notice' });
      expect(runs[0]! - written).to.be.below(3_000);
      // Five more events at once: at most one run now and one after (the notices coalesce).
      const before = runs.length;
      await Promise.all(Array.from({ length: 5 }, () => setup.opened()));
      await waitFor(() => runs.length > before, { timeoutMs: 3_000, what: 'a run for the burst' });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(runs.length - before, 'the burst coalesced').to.be.within(1, 2);
      const gaps = runs.slice(1).map((at, i) => at - runs[i]!);
      expect(Math.min(...gaps), 'runs at least about a second apart').to.be.at.least(950);
    } finally {
      await stop();
    }
  });
});
