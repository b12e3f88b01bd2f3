import { expect } from 'chai';
import { apiAt } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { aMonitorPackage, aMonitoredCustomer } from '../../support/monitoring-fixtures';
import { testServer } from '../../support/test-server';
import { sql } from '../../../src/infrastructure/persistence/sql';
import { waitFor } from '../../support/wait-for';
import { anEngineService, type EngineService } from '../../support/engine-service';
import { WebhookReceiver } from '../../support/peers/webhook-receiver';

const HOOK_HOST = 'hooks.dependencies-fixture.com';
const DEPENDENTS = 50;

/**
 * One alert for one root cause, end to end in one service as `npm start` runs it (check worker at
 * two locations, notification worker): a server (the root) and 50 sites depending on it, behind a
 * loopback target whose paths fail on demand, checked by the engine; a person's webhook receives
 * what the organization is told. Each site and the server need two failures in a row (the
 * customer's default) and are checked from both locations; confirmations are an hour away and the
 * regular checks a day apart, so (but for a regular slot falling in the test's seconds) only the
 * test's triggers run checks, and the rechecks a recovering root asks for.
 */
describe('dependencies end to end: a root and 50 dependents down together are one incident and one message', function () {
  this.timeout(60_000);
  let service: EngineService;
  const down = new Set<string>();
  const receiver = new WebhookReceiver(HOOK_HOST);
  before(async () => {
    service = await anEngineService({
      respond: (req, res) => {
        const failing = down.has(new URL(req.url ?? '/', 'http://x').searchParams.get('m') ?? '');
        res.writeHead(failing ? 503 : 200).end(failing ? 'down' : 'ok');
      },
      peers: [receiver],
      hosts: [HOOK_HOST],
      settings: {
        MONITOR_LOCATIONS: 'east,west',
        CHECK_LOCATIONS: 'east,west',
      },
    });
  });
  after(async () => {
    await service?.stop();
  });

  /** An organization with a webhook on `path`, a root website and 50 websites depending on it (named by their `m` query). */
  async function aRootAndDependents(label: string, path: string) {
    const call = service.call;
    const org = await anOrganization(label);
    const customer = await aMonitoredCustomer(org.token, { packageId: (await aMonitorPackage(org.token)).id });
    const channel = await call('POST', '/api/notification-channels', org.token, {
      name: 'hook',
      type: 'webhook',
      config: { url: receiver.url(path) },
    });
    expect(channel.status, JSON.stringify(channel.body)).to.equal(201);
    const site = async (name: string, dependsOn: string[] = []) => {
      const created = await call('POST', '/api/websites', org.token, {
        customerId: customer.id,
        name,
        url: `${service.targetUrl}/?m=${label}-${name}`,
        locations: ['east', 'west'],
        checkInterval: 1440,
        alertRetryInterval: 3600,
        dependsOn,
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      return created.body as { id: number; publicId: string };
    };
    const root = await site('root');
    const dependents: Array<{ id: number; publicId: string }> = [];
    for (let i = 0; i < DEPENDENTS; i += 1) dependents.push(await site(`site${i}`, [root.publicId]));
    /** How many results each website has (one read). */
    const recorded = async (sites: Array<{ id: number }>) => {
      const rows = await (
        await testServer()
      ).database.sql.query<{ monitor_id: string; n: string }>(
        sql`SELECT monitor_id, count(*) AS n FROM check_results WHERE monitor_id = ANY(${sites.map((s) => s.id)}::bigint[]) GROUP BY monitor_id`,
      );
      const counts = new Map(rows.map((row) => [Number(row.monitor_id), Number(row.n)]));
      return sites.map((s) => counts.get(s.id) ?? 0);
    };
    /** One check of each website, from both locations, waiting until all are recorded. */
    const check = async (sites: Array<{ id: number; publicId: string }>) => {
      const before = await recorded(sites);
      const triggered = await Promise.all(sites.map((s) => call('POST', `/api/websites/${s.publicId}/trigger-check`, org.token)));
      expect(triggered.map((r) => r.status)).to.satisfy((statuses: number[]) => statuses.every((status) => status === 202));
      await waitFor(async () => (await recorded(sites)).every((n, k) => n >= before[k]! + 2), {
        what: `${sites.length} websites checked from both locations`,
        timeoutMs: 20_000,
        everyMs: 50,
      });
    };
    const fail = (...names: string[]) => names.forEach((name) => down.add(`${label}-${name}`));
    const heal = (...names: string[]) => names.forEach((name) => down.delete(`${label}-${name}`));
    const openIncidents = async () =>
      (await call('GET', '/api/incidents?status=open&perPage=100', org.token)).body.items as Array<Record<string, any>>;
    const messages = () => receiver.at(path).map((r) => JSON.parse(r.body));
    const names = dependents.map((_, i) => `site${i}`);
    return { call, org, root, dependents, names, check, fail, heal, openIncidents, messages };
  }

  /** Nothing more arrives within a while (the notification worker polls every few hundred ms). */
  const quietFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('dependents failing first, then their root: one incident listing the 50, one message counting them', async () => {
    const world = await aRootAndDependents('first', '/dependents-first');
    world.fail(...world.names);
    await world.check(world.dependents); // their first failures: nothing is confirmed yet
    world.fail('root');
    await world.check([world.root]); // the root is being confirmed down
    await world.check(world.dependents); // confirmed, but their root is failing: held back
    await world.check([world.root]); // the root's incident opens
    const open = await world.openIncidents();
    expect(open.map((i) => i.monitorId)).to.deep.equal([world.root.id]);
    const detail = await world.call('GET', `/api/incidents/${open[0]!.publicId}`, world.org.token);
    expect(detail.body.affectedMonitors.map((m: { publicId: string }) => m.publicId)).to.have.members(
      world.dependents.map((d) => d.publicId),
    );
    const shown = await world.call('GET', `/api/websites/${world.dependents[7]!.publicId}`, world.org.token);
    expect(shown.body.currentState).to.include({ status: 'dependencyDown', dependencyRoot: world.root.publicId });

    // A status page showing three of the sites (not the server): the server's incident is theirs.
    const slug = `deps-${Math.random().toString(36).slice(2, 10)}`;
    const shownSites = world.dependents.slice(0, 3);
    const page = await world.call('POST', '/api/status-pages', world.org.token, {
      title: 'Sites',
      slug,
      groups: [{ name: 'Web', components: shownSites.map((d, k) => ({ type: 'monitor', id: d.publicId, name: `Site ${k}` })) }],
    });
    expect(page.status, JSON.stringify(page.body)).to.equal(201);
    const publicPage = (await apiAt(service.app.url, 'GET', `/api/public/status-pages/${slug}`, {})).body;
    expect(publicPage.incidents.active.map((i: { id: string }) => i.id)).to.deep.equal([open[0]!.publicId]);
    expect(publicPage.incidents.active[0].componentIds).to.have.members(shownSites.map((d) => d.publicId));

    await waitFor(() => world.messages().length >= 1, { what: 'the root incident.opened' });
    await quietFor(800);
    const messages = world.messages();
    expect(messages.map((m) => [m.event, m.monitor.id])).to.deep.equal([['incident.opened', world.root.publicId]]);
    expect(messages[0].data.affectedMonitors).to.equal(DEPENDENTS);
    expect(messages[0].summary).to.match(/; 50 monitors depending on it are affected$/);
  });

  it('the root failing first, then the dependents; the root recovers first while one stays down: that one alerts at once', async () => {
    const world = await aRootAndDependents('root-first', '/root-first');
    world.fail('root');
    await world.check([world.root]);
    await world.check([world.root]); // the root's incident opens
    world.fail(...world.names);
    await world.check(world.dependents);
    await world.check(world.dependents); // confirmed while the root is down: they join its incident
    const [rootIncident, ...others] = await world.openIncidents();
    expect(others).to.deep.equal([]);
    const detail = await world.call('GET', `/api/incidents/${rootIncident!.publicId}`, world.org.token);
    expect(detail.body.affectedMonitors).to.have.length(DEPENDENTS);
    await waitFor(() => world.messages().length >= 1, { what: 'the root incident.opened' });
    await quietFor(800);
    expect(world.messages().map((m) => m.event)).to.deep.equal(['incident.opened']);

    // Everything is fixed but site3; only the root is checked: it resolves, and its held monitors are checked again at once.
    world.heal('root', ...world.names.filter((name) => name !== 'site3'));
    await world.check([world.root]);
    const stillDown = world.dependents[3]!;
    const opened = await waitFor(async () => (await world.openIncidents()).find((i) => i.monitorId === stillDown.id), {
      what: 'the dependent still down alerting',
      timeoutMs: 15_000,
      everyMs: 100,
    });
    expect(opened!.status).to.equal('open');
    await waitFor(() => world.messages().length >= 3, { what: 'the resolution and the dependent opening' });
    await quietFor(800);
    const told = world.messages().map((m) => [m.event, m.monitor?.id ?? m.summary]);
    expect(told).to.deep.equal([
      ['incident.opened', world.root.publicId],
      ['incident.resolved', world.root.publicId],
      ['incident.opened', stillDown.publicId],
    ]);
    expect((await world.openIncidents()).map((i) => i.monitorId)).to.deep.equal([stillDown.id]);
    const recovered = await world.call('GET', `/api/websites/${world.dependents[4]!.publicId}`, world.org.token);
    expect(recovered.body.currentState.status, 'rechecked: up again').to.equal('up');
  });
});
