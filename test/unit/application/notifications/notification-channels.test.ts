import { expect } from 'chai';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import { anActor } from '../../../support/builders';
import { webhookSecretContext } from '../../../../src/application/notifications/webhook-secrets';
import { harness } from './harness';

const HOOK = 'https://hooks.example.com/in';
const admin = () => anActor().build();
const webhook = { name: 'hook', type: 'webhook' as const, config: { url: HOOK } };
const email = (to = 'ops@example.com') => ({ name: 'mail', type: 'email' as const, config: { recipients: [to] } });

describe('notification channel use cases', () => {
  describe('create', () => {
    it("answers a webhook's secret once and keeps it sealed to the channel, for the deliverer to open", async () => {
      const h = harness();
      const { channel, secret } = await h.create.execute(admin(), webhook);
      expect(secret).to.match(/^whsec_/);
      const stored = h.channels.rows.get(channel.id)!;
      expect(stored.secretCiphertext).to.equal(`sealed(${webhookSecretContext(channel)}):${Buffer.from(secret!).toString('base64')}`);
      expect(h.secrets.open(stored)).to.equal(secret);
      expect((await h.create.execute(admin(), email())).secret).to.equal(null);
    });

    it("puts a customer-scoped caller's channel on its customer, and answers customerNotFound for any other", async () => {
      const h = harness();
      const { channel } = await h.create.execute(anActor().forCustomer(10).build(), email());
      expect(channel.customerId).to.equal(10);
      await expectAppErrorAsync(
        () => h.create.execute(anActor().forCustomer(10).build(), { ...email('b@example.com'), customerId: 11 }),
        'customerNotFound',
      );
      await expectAppErrorAsync(() => h.create.execute(admin(), { ...email(), customerId: 20 }), 'customerNotFound');
      expect(h.channels.rows.size).to.equal(1);
    });

    it('is for writers (roleForbidden for read-only callers)', async () => {
      const h = harness();
      await expectAppErrorAsync(() => h.create.execute(anActor().withRole('readonly').build(), email()), 'roleForbidden');
    });

    it('refuses a recipient an enabled channel of the scope already has, naming that channel', async () => {
      const h = harness();
      const first = (await h.create.execute(admin(), email())).channel;
      await expectAppErrorAsync(() => h.create.execute(admin(), email()), 'notificationChannelRecipientExists', { channelId: first.id });
      expect(h.channels.rows.size).to.equal(1);
    });
  });

  describe('monitor overrides', () => {
    it("take the source's type, config and events unless given, and belong to the monitor's customer", async () => {
      const h = harness();
      const source = (await h.create.execute(admin(), { ...email(), events: ['incident.opened'] })).channel;
      const { channel } = await h.create.execute(admin(), { name: 'o', websiteId: 100, sourceChannelId: source.id });
      expect(channel).to.include({ type: 'email', customerId: 10, monitorId: 100, sourceChannelId: source.id });
      expect(channel.config).to.deep.equal(source.config);
      expect(channel.events).to.deep.equal(['incident.opened']);
      const other = await h.create.execute(admin(), { ...webhook, name: 'o2', websiteId: 200, sourceChannelId: source.id });
      expect(other.channel.type).to.equal('webhook');
      expect(other.secret).to.match(/^whsec_/);
    });

    it("a type other than the source's needs its own config", async () => {
      const h = harness();
      const source = (await h.create.execute(admin(), email())).channel;
      await expectAppErrorAsync(
        () => h.create.execute(admin(), { name: 'o', websiteId: 100, sourceChannelId: source.id, type: 'sms' }),
        'invalidRequestBody',
        { field: 'config' },
      );
    });

    it('answer the source codes in order: required, invalid, monitor, source not found, exists', async () => {
      const h = harness();
      const source = (await h.create.execute(admin(), email())).channel;
      await expectAppErrorAsync(() => h.create.execute(admin(), { name: 'o', websiteId: 100 }), 'sourceChannelIdRequired');
      await expectAppErrorAsync(
        () => h.create.execute(admin(), { name: 'o', websiteId: 100, sourceChannelId: 'x1' }),
        'invalidSourceChannelId',
      );
      await expectAppErrorAsync(
        () => h.create.execute(admin(), { name: 'o', websiteId: 300, sourceChannelId: source.id }),
        'monitorNotFound',
      );
      await expectAppErrorAsync(
        () => h.create.execute(admin(), { name: 'o', websiteId: 100, sourceChannelId: 999 }),
        'sourceChannelNotFound',
      );
      await h.create.execute(admin(), { name: 'o', websiteId: 100, sourceChannelId: source.id });
      await expectAppErrorAsync(
        () => h.create.execute(admin(), { name: 'o', websiteId: 100, sourceChannelId: source.publicId }),
        'websiteChannelOverrideExists',
      );
    });

    it("a customer-scoped caller cannot see the organization's channel as a source, nor another customer's monitor", async () => {
      const h = harness();
      const orgChannel = (await h.create.execute(admin(), email())).channel;
      const mine = anActor().forCustomer(10).build();
      await expectAppErrorAsync(
        () => h.create.execute(mine, { name: 'o', websiteId: 100, sourceChannelId: orgChannel.id }),
        'sourceChannelNotFound',
      );
      await expectAppErrorAsync(
        () => h.create.execute(mine, { name: 'o', websiteId: 200, sourceChannelId: orgChannel.id }),
        'monitorNotFound',
      );
    });

    it("refuses a customerId that is not the monitor's", async () => {
      const h = harness();
      const source = (await h.create.execute(admin(), email())).channel;
      await expectAppErrorAsync(
        () => h.create.execute(admin(), { name: 'o', websiteId: 100, customerId: 11, sourceChannelId: source.id }),
        'invalidRequestBody',
        { field: 'customerId' },
      );
    });
  });

  describe('update, get, delete', () => {
    it("answer channelIdRequired, invalidChannelId and channelNotFound (another organization's channel too)", async () => {
      const h = harness();
      const foreign = (await h.create.execute(anActor().inOrganization(2).build(), email())).channel;
      for (const run of [
        (id: unknown) => h.get.execute(admin(), { id }),
        (id: unknown) => h.update.execute(admin(), { id, change: { name: 'x' } }),
        (id: unknown) => h.remove.execute(admin(), { id }),
      ]) {
        await expectAppErrorAsync(() => run('  '), 'channelIdRequired');
        await expectAppErrorAsync(() => run('1e3'), 'invalidChannelId');
        await expectAppErrorAsync(() => run(String(foreign.id)), 'channelNotFound');
      }
    });

    it('turn a lost race into conflict', async () => {
      const h = harness();
      const { channel } = await h.create.execute(admin(), email());
      h.channels.versions.concurrentWriteOnNextSave = true;
      await expectAppErrorAsync(() => h.update.execute(admin(), { id: String(channel.id), change: { name: 'x' } }), 'conflict');
      expect(h.channels.rows.get(channel.id)!.name).to.equal('mail');
    });

    it('issue a new secret when a channel becomes a webhook, and none on other changes', async () => {
      const h = harness();
      const { channel } = await h.create.execute(admin(), email());
      const changed = await h.update.execute(admin(), { id: channel.publicId, change: { type: 'webhook', config: { url: HOOK } } });
      expect(changed.secret).to.match(/^whsec_/);
      expect(h.secrets.open(h.channels.rows.get(channel.id)!)).to.equal(changed.secret);
      expect((await h.update.execute(admin(), { id: channel.publicId, change: { name: 'n' } })).secret).to.equal(null);
    });

    it('delete removes the overrides made of the channel', async () => {
      const h = harness();
      const source = (await h.create.execute(admin(), email())).channel;
      await h.create.execute(admin(), { name: 'o', websiteId: 100, sourceChannelId: source.id });
      const outcome = await h.remove.execute(admin(), { id: String(source.id) });
      expect(outcome.deletedOverrides).to.equal(1);
      expect(h.channels.rows.size).to.equal(0);
    });
  });

  describe('list', () => {
    it("filters by customer and by monitor, within the caller's scope", async () => {
      const h = harness();
      const org = (await h.create.execute(admin(), email())).channel;
      const c10 = (await h.create.execute(admin(), { ...email(), customerId: 10 })).channel;
      const c11 = (await h.create.execute(admin(), { ...email(), customerId: 11 })).channel;
      const o100 = (await h.create.execute(admin(), { name: 'o', websiteId: 100, sourceChannelId: org.id })).channel;
      const ids = async (actor = admin(), query = {}) => (await h.list.execute(actor, query)).map((c) => c.id);
      expect(await ids()).to.deep.equal([org.id, c10.id, c11.id, o100.id]);
      expect(await ids(admin(), { customerId: '10' })).to.deep.equal([c10.id, o100.id]);
      expect(await ids(admin(), { websiteId: '100' })).to.deep.equal([o100.id]);
      expect(await ids(anActor().forCustomer(11).build())).to.deep.equal([c11.id]);
      await expectAppErrorAsync(() => h.list.execute(anActor().forCustomer(11).build(), { customerId: '10' }), 'customerNotFound');
      await expectAppErrorAsync(() => h.list.execute(admin(), { websiteId: '300' }), 'monitorNotFound');
    });
  });

  it('routes an event through the stored channels (override in place of its source)', async () => {
    const h = harness();
    const org = (await h.create.execute(admin(), email())).channel;
    const customer = (await h.create.execute(admin(), { ...email(), customerId: 10 })).channel;
    const override = (
      await h.create.execute(admin(), { name: 'o', websiteId: 100, sourceChannelId: org.id, config: { recipients: ['night@example.com'] } })
    ).channel;
    await h.create.execute(anActor().inOrganization(2).build(), email());
    const routed = await h.route.execute({ kind: 'incident.opened', organizationId: 1, customerId: 10, monitorId: 100 });
    expect(routed.map((c) => c.id)).to.deep.equal([override.id, customer.id]);
  });
});
