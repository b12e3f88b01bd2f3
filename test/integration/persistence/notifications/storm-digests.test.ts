import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitoredCustomer, aWebsite, storedMonitor } from '../../../support/monitoring-fixtures';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { waitFor } from '../../../support/wait-for';
import { WebhookReceiver } from '../../../support/peers/webhook-receiver';
import { OutboxIncidentEvents, UNTOLD_HELD } from '../../../support/outbox-events';
import { standalone } from '../../../support/unit-of-work';
import { raw, sql } from '../../../../src/infrastructure/persistence/sql';

const HOOK_HOST = 'hooks.storm-fixture.com';
const WINDOW_SECONDS = 4;

/**
 * Storms through the real ledger, workers and a loopback receiver: twenty monitors of one customer
 * failing together (their incidentOpened events queued by the real outbox adapter, as the alert
 * rules queue them) reach a webhook as three messages and one storm digest, and their recoveries as
 * one recovery digest.
 */
describe('storm digests (ledger, workers, loopback receiver)', () => {
  const receiver = new WebhookReceiver(HOOK_HOST);
  let service: DeliveryService;

  before(async () => {
    await receiver.start();
    service = await aDeliveryService([HOOK_HOST], {
      NOTIFY_DIGEST_AFTER: '3',
      NOTIFY_DIGEST_WINDOW_SECONDS: String(WINDOW_SECONDS),
      NOTIFY_STORM_FOLLOW_UP_SECONDS: '600',
    });
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await receiver.stop();
  });

  /** An organization whose customer has twenty monitors, and a webhook channel of the organization. */
  async function aStormSetup(label: string) {
    const org = await anOrganization(label);
    const customer = await aMonitoredCustomer(org.token);
    const monitors: Array<{ id: number; publicId: string; name: string }> = [];
    for (let i = 1; i <= 20; i += 1) {
      const website = await aWebsite()
        .forCustomer(customer.id)
        .named(`storm-${i}`)
        .with({ url: `https://www.monitor-fixture.com/health?site=${i}` })
        .create(org.token);
      monitors.push({ id: Number((await storedMonitor(website.publicId)).id), publicId: website.publicId, name: `storm-${i}` });
    }
    const path = `/${label}-${Date.now()}`;
    const channel = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: label, type: 'webhook', config: { url: receiver.url(path) } },
    });
    expect(channel.status, JSON.stringify(channel.body)).to.equal(201);
    const publish = (kind: 'incidentOpened' | 'incidentResolved') => {
      const events = new OutboxIncidentEvents(standalone(service.app.database.sql));
      return Promise.all(
        monitors.map((m) =>
          events.publish({
            kind,
            organizationId: org.user.organizationId,
            customerId: customer.id,
            monitorId: m.id,
            incidentPublicId: `${label}-inc-${m.name}`,
            occurredAt: new Date(),
            summary: kind === 'incidentOpened' ? `${m.name} is down` : `${m.name} recovered`,
            data: { monitorPublicId: m.publicId },
          }),
        ),
      );
    };
    return {
      org,
      customer,
      monitors,
      channel: channel.body,
      path,
      publish,
      bodies: () => receiver.at(path).map((r) => JSON.parse(r.body)),
    };
  }

  it('twenty monitors failing together: three alerts at once, one digest of the storm, then one recovery digest', async () => {
    const setup = await aStormSetup('storm');
    await setup.publish('incidentOpened');
    // Two workers route and deliver side by side: neither doubles a message nor the digest.
    service.worker('storm-a');
    service.worker('storm-b');
    await waitFor(() => setup.bodies().length >= 3, { what: 'the first three alerts' });
    const firstThree = setup.bodies().slice(0, 3);
    expect(firstThree.map((b) => b.event)).to.deep.equal(['incident.opened', 'incident.opened', 'incident.opened']);

    await waitFor(() => setup.bodies().length >= 4, { what: 'the digest', timeoutMs: (WINDOW_SECONDS + 5) * 1000 });
    const digest = setup.bodies()[3];
    expect(digest).to.include({ event: 'incident.digest', incident: null, monitor: null });
    expect(digest.customer).to.deep.equal({ id: setup.customer.id });
    expect(digest.summary).to.match(/^20 monitors of .+ are down: storm-\d+ is down; /);
    expect(digest.data).to.include({ digestOf: 'incident.opened', stage: 'started', count: 17, down: 20, total: 20 });
    const listed = digest.data.incidents as Array<{ incidentId: string; monitorId: number }>;
    const alone = firstThree.map((b) => b.incident.id as string);
    expect(new Set([...alone, ...listed.map((i) => i.incidentId)]).size, 'every incident told once').to.equal(20);

    await setup.publish('incidentResolved');
    await waitFor(() => setup.bodies().length >= 5, { what: 'the recovery digest', timeoutMs: (WINDOW_SECONDS + 5) * 1000 });
    const recovery = setup.bodies()[4];
    expect(recovery.summary).to.match(/^.+: storm over, all 20 monitors recovered: /);
    expect(recovery.data).to.include({ digestOf: 'incident.resolved', stage: 'over', count: 20, resolved: 20, down: 0 });

    // Nothing more comes, and the ledger shows the five messages through the API.
    await service.stopWorkers();
    await service.worker('storm-c', false).runOnce();
    expect(setup.bodies()).to.have.length(5);
    const deliveries = await api('GET', `/api/notification-deliveries?channelId=${setup.channel.publicId}&perPage=50`, {
      token: setup.org.token,
    });
    expect(deliveries.body.total).to.equal(5);
    expect(deliveries.body.items.filter((d: { event: string }) => d.event === 'incident.digest')).to.have.length(2);
    // "Was I told?" for a held incident: its deliveries are the digests that listed it.
    const told = await api('GET', `/api/notification-deliveries?incidentId=${listed[0]!.incidentId}`, { token: setup.org.token });
    expect(told.body.items.map((d: { id: string }) => d.id).sort()).to.deep.equal([digest.id, recovery.id].sort());
  });

  it('a storm held when its workers stop is digested by a worker started later: held events live in the ledger', async () => {
    const setup = await aStormSetup('storm-crash');
    await setup.publish('incidentOpened');
    const first = service.worker('storm-crash-a', false);
    await first.runOnce();
    await first.runOnce();
    await service.stopWorkers();
    expect(setup.bodies().map((b) => b.event)).to.deep.equal(['incident.opened', 'incident.opened', 'incident.opened']);
    const [held] = await service.app.database.sql.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM notification_outbox o WHERE o.organization_id = ${setup.org.user.organizationId} AND ${raw(UNTOLD_HELD)}`,
    );
    expect(held!.n).to.equal(17);

    service.worker('storm-crash-b');
    await waitFor(() => setup.bodies().length >= 4, { what: 'the digest after restart', timeoutMs: (WINDOW_SECONDS + 5) * 1000 });
    expect(setup.bodies()[3].data).to.include({ stage: 'started', count: 17, down: 20 });
  });
});
