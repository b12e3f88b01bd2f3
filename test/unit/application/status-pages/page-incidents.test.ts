import { expect } from 'chai';
import { Subscriber } from '../../../../src/domain/status-pages/subscriber';
import { anActor } from '../../../support/builders';
import { aStatusPagesWorld, SHOP_AND_BLOG } from '../../../support/builders/status-pages';
import { codeOf, expectAppErrorAsync } from '../../../support/expect-app-error';
import type { FakeDirectDeliveries } from '../../../support/fakes/notifications-fakes';

const ORG = 1;

/** The page "Acme" over m-7 ("Shop") and m-8 ("Blog"); m-10 is in the catalog but not on the page; two service incidents open. */
async function aPageIncidentWorld() {
  const world = aStatusPagesWorld().monitor(7, 'Shop').monitor(8, 'Blog').monitor(10, 'Not on the page');
  const { clock, readings, subscribers } = world;
  readings.serviceIncidents = [
    {
      id: 41,
      publicId: 'inc-41',
      monitorId: 7,
      origin: 'automatic',
      title: 'Shop is down',
      open: true,
      startedAt: clock.now(),
      resolvedAt: null,
    },
    {
      id: 50,
      publicId: 'inc-50',
      monitorId: 10,
      origin: 'manual',
      title: 'Elsewhere',
      open: true,
      startedAt: clock.now(),
      resolvedAt: null,
    },
  ];
  const page = await world.aPage('acme', { groups: SHOP_AND_BLOG });
  const follower = async (address: string, componentKeys: string[], confirmed = true) => {
    const s = Subscriber.email({ pageId: page.id, organizationId: ORG, address, componentKeys, token: `t-${address}` }, clock.now());
    if (confirmed) s.confirm(clock.now());
    return (await subscribers.add(s)).subscriber;
  };
  return { ...world, page, create: world.createIncident, post: world.postUpdate, list: world.listIncidents, follower };
}

const declare = (over: Record<string, unknown> = {}) => ({
  id: '1',
  title: 'Slow checkout',
  status: 'investigating' as const,
  message: 'Looking into it',
  componentIds: ['m-7'],
  ...over,
});
const addresses = (deliveries: FakeDirectDeliveries) =>
  deliveries.rows.map((r) => (r.message.recipient as { address: string }).address).sort();

describe('Status pages: incidents told on a page (use cases)', () => {
  it('declares an incident on the page with its first update and its components by public or legacy id', async () => {
    const { create, page } = await aPageIncidentWorld();
    const view = await create.execute(anActor().withRole('editor').build(), declare({ componentIds: ['M-7', '8'] }));
    expect(view.componentIds).to.deep.equal(['m-7', 'm-8']);
    expect(view.incident).to.deep.include({ pageId: page.id, incidentId: null, title: 'Slow checkout', status: 'investigating' });
    expect(view.incident.updates.map((u) => [u.status, u.message])).to.deep.equal([['investigating', 'Looking into it']]);
    expect(view.incident.updates[0]!.id, 'stored').to.be.above(0);
  });

  it('refuses a component that is not on the page, a missing title, an empty message and a read-only caller', async () => {
    const { create, incidents } = await aPageIncidentWorld();
    await expectAppErrorAsync(create.execute(anActor().build(), declare({ componentIds: ['m-10'] })), 'validationFailed', {
      field: 'componentIds',
      componentId: 'm-10',
    });
    await expectAppErrorAsync(create.execute(anActor().build(), declare({ title: undefined })), 'validationFailed', { field: 'title' });
    await expectAppErrorAsync(create.execute(anActor().build(), declare({ message: ' ' })), 'validationFailed', { field: 'message' });
    expect(await codeOf(create.execute(anActor().withRole('readonly').build(), declare()))).to.equal('roleForbidden');
    expect(incidents.rows.size).to.equal(0);
  });

  it("answers incidentNotFound for a service incident of a monitor not on the page, and statusPageNotFound for another's page", async () => {
    const { create } = await aPageIncidentWorld();
    expect(await codeOf(create.execute(anActor().build(), declare({ incidentId: 'inc-50' })))).to.equal('incidentNotFound');
    expect(await codeOf(create.execute(anActor().inOrganization(2).build(), declare()))).to.equal('statusPageNotFound');
    expect(await codeOf(create.execute(anActor().forCustomer(4).build(), declare()))).to.equal('statusPageNotFound');
  });

  it("takes a service incident's title and monitor when none are given", async () => {
    const { create } = await aPageIncidentWorld();
    const view = await create.execute(anActor().build(), declare({ title: undefined, incidentId: 'inc-41', componentIds: [] }));
    expect(view.incident).to.deep.include({ title: 'Shop is down', incidentId: 41, incidentPublicId: 'inc-41' });
    expect(view.componentIds).to.deep.equal(['m-7']);
  });

  it("posts updates: each moves the status, resolved closes it; another page's incident is pageIncidentNotFound", async () => {
    const { create, post, clock } = await aPageIncidentWorld();
    const { incident } = await create.execute(anActor().build(), declare());
    clock.advance(60_000);
    const resolved = await post.execute(anActor().build(), {
      id: '1',
      incidentId: incident.publicId,
      status: 'resolved',
      message: 'Fixed',
    });
    expect(resolved.incident).to.deep.include({ status: 'resolved', isOpen: false, resolvedAt: clock.now() });
    expect(resolved.incident.updates.map((u) => u.status)).to.deep.equal(['investigating', 'resolved']);
    expect(await codeOf(post.execute(anActor().build(), { id: '1', incidentId: 'nope', status: 'resolved', message: 'x' }))).to.equal(
      'pageIncidentNotFound',
    );
    expect(
      await codeOf(
        post.execute(anActor().inOrganization(2).build(), { id: '1', incidentId: incident.publicId, status: 'resolved', message: 'x' }),
      ),
    ).to.equal('statusPageNotFound');
    expect(
      await codeOf(
        post.execute(anActor().withRole('readonly').build(), {
          id: '1',
          incidentId: incident.publicId,
          status: 'monitoring',
          message: 'x',
        }),
      ),
    ).to.equal('roleForbidden');
  });

  it("lists a page's incidents to its organization, newest first, and not to another", async () => {
    const { create, list } = await aPageIncidentWorld();
    await create.execute(anActor().build(), declare({ title: 'First' }));
    await create.execute(anActor().build(), declare({ title: 'Second', componentIds: [] }));
    const views = await list.execute(anActor().withRole('readonly').build(), { id: '1' });
    expect(views.map((v) => [v.incident.title, v.componentIds])).to.deep.equal([
      ['Second', []],
      ['First', ['m-7']],
    ]);
    expect(await codeOf(list.execute(anActor().inOrganization(2).build(), { id: '1' }))).to.equal('statusPageNotFound');
  });

  it('tells each update to the confirmed subscribers following its components, page-wide ones included', async () => {
    const { create, post, follower, deliveries } = await aPageIncidentWorld();
    await follower('shop@example.com', ['monitor:7']);
    await follower('blog@example.com', ['monitor:8']);
    await follower('all@example.com', []);
    await follower('unconfirmed@example.com', [], false);
    const { incident } = await create.execute(anActor().build(), declare());
    expect(addresses(deliveries)).to.deep.equal(['all@example.com', 'shop@example.com']);
    const first = deliveries.rows[0]!.message;
    expect(first).to.deep.include({ event: 'statusPage.incidentUpdate', subject: '[Acme] Slow checkout: Investigating' });
    expect(first.text).to.include('Investigating: Looking into it');
    await post.execute(anActor().build(), { id: '1', incidentId: incident.publicId, status: 'monitoring', message: 'Fix out' });
    expect(deliveries.rows.map((r) => r.message.subject).at(-1)).to.equal('[Acme] Slow checkout: Monitoring');
    expect(deliveries.rows).to.have.length(4);
  });

  it('tells a page-wide incident to every confirmed subscriber, whatever they follow', async () => {
    const { create, follower, deliveries } = await aPageIncidentWorld();
    await follower('shop@example.com', ['monitor:7']);
    await follower('blog@example.com', ['monitor:8']);
    await create.execute(anActor().build(), declare({ componentIds: [] }));
    expect(addresses(deliveries)).to.deep.equal(['blog@example.com', 'shop@example.com']);
  });

  it('sends a webhook subscriber the update as data, with its secret and the page', async () => {
    const { create, deliveries, subscribers, page, clock } = await aPageIncidentWorld();
    const hook = Subscriber.webhook(
      { pageId: page.id, organizationId: ORG, address: 'https://hooks.example/x', secret: 'whsec_1', componentKeys: [], token: 't' },
      clock.now(),
    );
    await subscribers.add(hook);
    const { incident } = await create.execute(anActor().build(), declare());
    const [sent] = deliveries.rows.map((r) => r.message);
    expect(sent!.recipient).to.deep.equal({ type: 'webhook', url: 'https://hooks.example/x', secret: 'whsec_1' });
    expect(sent!.data).to.deep.include({
      statusPage: { id: page.publicId, title: 'Acme', url: 'https://status.example/status/acme' },
      incident: { id: incident.publicId, title: 'Slow checkout', status: 'investigating' },
    });
    expect(sent!.dedupKey).to.equal(`statusPage:${page.id}:update:${incident.updates[0]!.id}:subscriber:${hook.id}`);
  });
});
