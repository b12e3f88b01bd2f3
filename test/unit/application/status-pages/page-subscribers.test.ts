import { expect } from 'chai';
import { pageUrl } from '../../../../src/application/status-pages/subscriber-messages';
import { anActor } from '../../../support/builders';
import { aStatusPagesWorld, SHOP_AND_BLOG } from '../../../support/builders/status-pages';
import { codeOf, expectAppErrorAsync } from '../../../support/expect-app-error';

const HOUR = 3_600_000;
const links = { publicBaseUrl: 'https://status.example' };
const visitor = { ip: '198.51.100.7', accessToken: undefined };

/** The page "Page acme" over m-7 ("Shop") and m-8 ("Blog"); m-10 is in the catalog but not on the page. More pages with `aPage`. */
async function aSubscribedPageWorld() {
  const world = aStatusPagesWorld().monitor(7, 'Shop').monitor(8, 'Blog').monitor(10, 'Not on the page');
  const aPage = (slug: string, password: string | null = null) =>
    world.aPage(slug, { title: `Page ${slug}`, password, groups: SHOP_AND_BLOG });
  return { ...world, page: await aPage('acme'), aPage };
}

const email = (address: string, componentIds: string[] = []) => ({ channel: 'email' as const, email: address, componentIds });
const webhook = (url: string, componentIds: string[] = []) => ({ channel: 'webhook' as const, url, componentIds });

describe("Status pages: a page's subscribers (use cases)", () => {
  it('asks an e-mail subscriber added by an editor to confirm, once, and shows no secret', async () => {
    const { editors, deliveries, page } = await aSubscribedPageWorld();
    const added = await editors.add(anActor().withRole('editor').build(), {
      id: page.publicId,
      subscriber: email('Ops@Acme.example', ['m-7']),
    });
    expect(added.subscriber).to.deep.include({ channel: 'email', address: 'ops@acme.example', confirmed: false });
    expect(added).to.deep.include({ componentIds: ['m-7'], secret: null });
    await editors.add(anActor().build(), { id: page.publicId, subscriber: email('ops@acme.example') });
    expect(deliveries.rows.map((r) => r.message.event)).to.deep.equal(['statusPage.subscriptionConfirmation']);
  });

  it('confirms a webhook at once and shows its signing secret only when it is created', async () => {
    const { editors, deliveries, page } = await aSubscribedPageWorld();
    const added = await editors.add(anActor().build(), { id: page.publicId, subscriber: webhook('https://hooks.acme.com/status') });
    expect(added.subscriber).to.deep.include({ channel: 'webhook', confirmed: true });
    expect(added.secret).to.match(/^whsec_[0-9a-f]{32}$/);
    expect(added.subscriber.webhookSecret).to.equal(added.secret);
    const again = await editors.add(anActor().build(), { id: page.publicId, subscriber: webhook('https://hooks.acme.com/status') });
    expect(again.secret).to.equal(null);
    expect(again.subscriber.id).to.equal(added.subscriber.id);
    expect(deliveries.rows).to.have.length(0);
  });

  it('refuses a webhook to a private address, a component not on the page, a bad e-mail and a read-only caller', async () => {
    const { editors, subscribers, page } = await aSubscribedPageWorld();
    await expectAppErrorAsync(
      editors.add(anActor().build(), { id: page.publicId, subscriber: webhook('https://10.0.0.1/hook') }),
      'invalidRequestBody',
      {
        field: 'url',
      },
    );
    await expectAppErrorAsync(
      editors.add(anActor().build(), { id: page.publicId, subscriber: email('a@acme.example', ['m-10']) }),
      'validationFailed',
      { field: 'componentIds', componentId: 'm-10' },
    );
    expect(await codeOf(editors.add(anActor().build(), { id: page.publicId, subscriber: email('not-an-address') }))).to.equal(
      'validationFailed',
    );
    expect(
      await codeOf(editors.add(anActor().withRole('readonly').build(), { id: page.publicId, subscriber: email('a@acme.example') })),
    ).to.equal('roleForbidden');
    expect(subscribers.rows.size).to.equal(0);
  });

  it("lists and removes a page's subscribers within the organization only", async () => {
    const { editors, page, aPage, subscribers } = await aSubscribedPageWorld();
    const other = await aPage('other');
    const mine = (await editors.add(anActor().build(), { id: page.publicId, subscriber: email('a@acme.example', ['m-8']) })).subscriber;
    const theirs = (await editors.add(anActor().build(), { id: other.publicId, subscriber: email('b@acme.example') })).subscriber;
    const listed = await editors.list(anActor().withRole('readonly').build(), { id: page.publicId });
    expect(listed.map((v) => [v.subscriber.address, v.componentIds])).to.deep.equal([['a@acme.example', ['m-8']]]);
    expect(await codeOf(editors.list(anActor().inOrganization(2).build(), { id: page.publicId }))).to.equal('statusPageNotFound');
    expect(await codeOf(editors.remove(anActor().build(), { id: page.publicId, subscriberId: String(theirs.id) }))).to.equal(
      'subscriberNotFound',
    );
    expect(
      await codeOf(editors.remove(anActor().inOrganization(2).build(), { id: page.publicId, subscriberId: String(mine.id) })),
    ).to.equal('statusPageNotFound');
    expect(await codeOf(editors.remove(anActor().build(), { id: page.publicId, subscriberId: 'x' }))).to.equal('invalidSubscriberId');
    expect(
      await codeOf(editors.remove(anActor().withRole('readonly').build(), { id: page.publicId, subscriberId: String(mine.id) })),
    ).to.equal('roleForbidden');
    expect((await editors.remove(anActor().build(), { id: page.publicId, subscriberId: String(mine.id) })).id).to.equal(mine.id);
    expect([...subscribers.rows.values()].map((s) => s.address)).to.deep.equal(['b@acme.example']);
  });

  it("confirms and unsubscribes by the subscriber's token on its own page only", async () => {
    const { subscribe, manage, subscribers, aPage, clock } = await aSubscribedPageWorld();
    await aPage('other');
    await subscribe.execute({ slug: 'acme' }, visitor, { email: 'ada@example.com', componentIds: [] });
    const token = [...subscribers.rows.values()][0]!.token;
    expect(await codeOf(manage.confirm({ slug: 'other' }, token))).to.equal('subscriberNotFound');
    expect(await codeOf(manage.confirm({ slug: 'acme' }, ''))).to.equal('subscriberNotFound');
    expect(await codeOf(manage.confirm({ slug: 'nope' }, token))).to.equal('statusPageNotFound');
    expect(await manage.confirm({ slug: 'acme' }, token)).to.deep.equal({ title: 'Page acme' });
    const confirmedAt = [...subscribers.rows.values()][0]!.confirmedAt;
    clock.advance(HOUR);
    await manage.confirm({ slug: 'acme' }, token);
    expect([...subscribers.rows.values()][0]!.confirmedAt, 'a second click changes nothing').to.deep.equal(confirmedAt);
    expect(await codeOf(manage.unsubscribe({ slug: 'other' }, token))).to.equal('subscriberNotFound');
    expect(await manage.unsubscribe({ slug: 'acme' }, token)).to.deep.equal({ title: 'Page acme' });
    expect(subscribers.rows.size).to.equal(0);
  });

  it('answers a confirmed address that subscribes again with a note, at most one an hour, and the same answer as a new one', async () => {
    const { subscribe, manage, subscribers, deliveries, clock } = await aSubscribedPageWorld();
    const first = await subscribe.execute({ slug: 'acme' }, visitor, { email: 'ada@example.com', componentIds: [] });
    await manage.confirm({ slug: 'acme' }, [...subscribers.rows.values()][0]!.token);
    const again = await subscribe.execute({ slug: 'acme' }, visitor, { email: 'ADA@example.com', componentIds: [] });
    expect(again).to.deep.equal(first);
    await subscribe.execute({ slug: 'acme' }, visitor, { email: 'ada@example.com', componentIds: [] });
    clock.advance(HOUR);
    await subscribe.execute({ slug: 'acme' }, visitor, { email: 'ada@example.com', componentIds: [] });
    expect(deliveries.rows.map((r) => r.message.event)).to.deep.equal([
      'statusPage.subscriptionConfirmation',
      'statusPage.alreadySubscribed',
      'statusPage.alreadySubscribed',
    ]);
    expect(deliveries.rows[1]!.message.text).to.include('https://status.example/status/acme/unsubscribe?token=');
    expect(subscribers.rows.size).to.equal(1);
  });

  it('lets a visitor subscribe to a password page only once signed in, and to a page that exists', async () => {
    const { subscribe, aPage } = await aSubscribedPageWorld();
    const locked = await aPage('locked', 'open-sesame');
    const input = { email: 'ada@example.com', componentIds: [] };
    expect(await codeOf(subscribe.execute({ slug: 'locked' }, visitor, input))).to.equal('forbidden');
    expect(await codeOf(subscribe.execute({ slug: 'locked' }, { ...visitor, accessToken: 'ok:wrong' }, input))).to.equal('forbidden');
    expect(await subscribe.execute({ pageId: locked.id }, { ...visitor, accessToken: `ok:${locked.accessSecret}` }, input)).to.deep.equal({
      slug: 'locked',
    });
    expect(await codeOf(subscribe.execute({ slug: 'nope' }, visitor, input))).to.equal('statusPageNotFound');
    expect(await codeOf(subscribe.execute({ slug: 'acme' }, visitor, { email: 'a@example.com', componentIds: ['m-10'] }))).to.equal(
      'validationFailed',
    );
  });

  it("links to the page's active custom domain when it has one, else to /status/{slug}", async () => {
    const { page } = await aSubscribedPageWorld();
    expect(pageUrl(links, page)).to.equal('https://status.example/status/acme');
    page.customDomain = 'status.acme.example';
    expect(pageUrl(links, page)).to.equal('https://status.acme.example');
  });
});
