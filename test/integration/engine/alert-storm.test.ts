import { expect } from 'chai';
import { anOrganization } from '../../support/builders';
import { aMonitoredCustomer } from '../../support/monitoring-fixtures';
import { waitFor } from '../../support/wait-for';
import { anEngineService, type EngineService } from '../../support/engine-service';
import { WebhookReceiver } from '../../support/peers/webhook-receiver';

const HOOK_HOST = 'hooks.storm-alert-fixture.com';
const WINDOW_SECONDS = 10;

/**
 * A storm end to end, in one service as `npm start` runs it: three monitors of one customer behind
 * one failing loopback target, checked by the engine, with a storm threshold that three crosses
 * (NOTIFY_DIGEST_AFTER 2: two openings alone, the third starts the storm). A person's webhook
 * receives exactly: the first two incident.opened, one digest of the storm ("3 monitors of <customer>
 * are down", listing the third), and once all three recovered one recovery digest listing the three
 * recoveries; no follow-up (nothing changed between the digest and the recoveries but the
 * recoveries themselves, told by the recovery digest at once).
 */
describe('alerts end to end: a storm of three monitors is one digest, and one recovery digest', () => {
  let service: EngineService;
  let healthy = false;
  const receiver = new WebhookReceiver(HOOK_HOST);
  before(async () => {
    service = await anEngineService({
      respond: (_req, res) => res.writeHead(healthy ? 200 : 503).end(healthy ? 'ok' : 'down'),
      peers: [receiver],
      hosts: [HOOK_HOST],
      settings: {
        NOTIFY_DIGEST_AFTER: '2',
        NOTIFY_DIGEST_WINDOW_SECONDS: String(WINDOW_SECONDS),
        NOTIFY_STORM_FOLLOW_UP_SECONDS: '600',
      },
    });
  });
  after(async () => {
    await service?.stop();
  });

  it('two alone, one storm digest, one recovery digest: exactly four messages', async () => {
    const call = service.call;
    const org = await anOrganization('alert-storm');
    const customer = await aMonitoredCustomer(org.token);
    const channel = await call('POST', '/api/notification-channels', org.token, {
      name: 'on-call hook',
      type: 'webhook',
      config: { url: receiver.url('/storm') },
    });
    expect(channel.status, JSON.stringify(channel.body)).to.equal(201);
    const sites: string[] = [];
    for (let i = 1; i <= 3; i += 1) {
      const site = await call('POST', '/api/websites', org.token, {
        customerId: customer.id,
        url: `${service.targetUrl}/?site=${i}`,
      });
      expect(site.status, JSON.stringify(site.body)).to.equal(201);
      sites.push(site.body.publicId as string);
    }
    const incidents = async (status: string) =>
      (await call('GET', `/api/incidents?status=${status}`, org.token)).body.items as Array<Record<string, any>>;
    const recorded = async (site: string) =>
      (await call('GET', `/api/websites/${site}/check-history`, org.token)).body.items.length as number;
    /** One check of every site at once, waiting until each is recorded. */
    const checkAll = async () => {
      const before = await Promise.all(sites.map(recorded));
      await Promise.all(sites.map((site) => call('POST', `/api/websites/${site}/trigger-check`, org.token)));
      await Promise.all(
        sites.map((site, i) => waitFor(async () => (await recorded(site)) > before[i]!, { what: `a check of ${site} recorded` })),
      );
    };
    const bodies = () => receiver.at('/storm').map((r) => JSON.parse(r.body));

    // The customer's default needs two failures in a row to open: the three open together.
    for (let round = 1; (await incidents('open')).length < 3; round++) {
      await checkAll();
      expect(round, 'three incidents within five rounds').to.be.at.most(5);
    }
    await waitFor(() => bodies().length >= 3, { what: 'two alerts and the storm digest', timeoutMs: (WINDOW_SECONDS + 10) * 1000 });
    const [first, second, digest] = bodies();
    expect([first.event, second.event]).to.deep.equal(['incident.opened', 'incident.opened']);
    expect(digest.event).to.equal('incident.digest');
    expect(digest.summary).to.match(/^3 monitors of .+ are down: /);
    expect(digest.data).to.include({ stage: 'started', count: 1, down: 3, total: 3 });
    const opened = new Set([
      first.incident.id,
      second.incident.id,
      ...digest.data.incidents.map((i: { incidentId: string }) => i.incidentId),
    ]);
    expect(opened.size, 'every incident told once').to.equal(3);

    healthy = true;
    for (let round = 1; (await incidents('resolved')).length < 3; round++) {
      await checkAll();
      expect(round, 'recovered within five rounds').to.be.at.most(5);
    }
    await waitFor(() => bodies().length >= 4, { what: 'the recovery digest' });
    const recovery = bodies()[3];
    expect(recovery.event).to.equal('incident.digest');
    expect(recovery.summary).to.match(/^.+: storm over, all 3 monitors recovered: /);
    expect(recovery.data).to.include({ stage: 'over', count: 3, resolved: 3, down: 0 });
    expect(new Set(recovery.data.incidents.map((i: { incidentId: string }) => i.incidentId))).to.deep.equal(opened);

    // Nothing more comes: no follow-up, no recovery told alone.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(bodies().map((b) => b.data?.stage ?? b.event)).to.deep.equal(['incident.opened', 'incident.opened', 'started', 'over']);
    const deliveries = await call('GET', `/api/notification-deliveries?channelId=${channel.body.publicId}`, org.token);
    expect(deliveries.body.total).to.equal(4);
  });
});
