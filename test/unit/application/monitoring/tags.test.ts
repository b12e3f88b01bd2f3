import { expect } from 'chai';
import { CreateTag } from '../../../../src/application/monitoring/create-tag';
import { UpdateTag } from '../../../../src/application/monitoring/update-tag';
import { DeleteTag } from '../../../../src/application/monitoring/delete-tag';
import { AttachTag } from '../../../../src/application/monitoring/attach-tag';
import { DetachTag } from '../../../../src/application/monitoring/detach-tag';
import type { Tag } from '../../../../src/domain/monitoring/tag';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import { anActor } from '../../../support/builders';
import { harness } from './harness';

function setup() {
  const h = harness();
  return {
    h,
    create: new CreateTag(h.tags, h.customers, h.users, h.ids, h.clock, h.tx),
    update: new UpdateTag(h.tags, h.clock, h.tx),
    remove: new DeleteTag(h.tags, h.tx),
    attach: new AttachTag(h.tags, h.monitors, h.tx),
    detach: new DetachTag(h.tags, h.monitors, h.tx),
  };
}

describe('tags', () => {
  it('creates a tag for the named customer, or organization-wide when an organization-wide caller names none', async () => {
    const { create } = setup();
    expect((await create.execute(anActor().build(), { name: 'prod', color: '#3b82f6', customerId: 11 })).customerId).to.equal(11);
    expect((await create.execute(anActor().build(), { name: 'everywhere', color: '#3B82F6' })).customerId).to.equal(null);
    await expectAppErrorAsync(() => create.execute(anActor().build(), { name: 'Everywhere', color: '#3B82F6' }), 'tagNameTaken');
    expect(
      (await create.execute(anActor().forCustomer(10).build(), { name: 'mine', color: '#3B82F6', customerId: 10 })).customerId,
    ).to.equal(10);
  });

  it('makes a customer-scoped caller name its customer while the organization has several', async () => {
    const { h, create } = setup();
    await expectAppErrorAsync(
      () => create.execute(anActor().forCustomer(10).build(), { name: 'mine', color: '#3B82F6' }),
      'tagCustomerRequired',
    );
    h.tags.several = false;
    expect((await create.execute(anActor().forCustomer(10).build(), { name: 'mine', color: '#3B82F6' })).customerId).to.equal(10);
  });

  it('answers invalidTagColor, invalidCustomer and authorizingUserUnresolved', async () => {
    const { h, create } = setup();
    await expectAppErrorAsync(() => create.execute(anActor().build(), { name: 'x', color: 'pink', customerId: 10 }), 'invalidTagColor');
    h.customers.set(11, { organizationId: 2 });
    await expectAppErrorAsync(() => create.execute(anActor().build(), { name: 'x', color: '#3B82F6', customerId: 11 }), 'invalidCustomer');
    await expectAppErrorAsync(
      () => create.execute(anActor().forCustomer(10).build(), { name: 'x', color: '#3B82F6', customerId: 11 }),
      'invalidCustomer',
    );
    await expectAppErrorAsync(
      () => create.execute(anActor().asAgent().withoutUser().build(), { name: 'x', color: '#3B82F6', customerId: 10 }),
      'authorizingUserUnresolved',
    );
  });

  it('renames, recolours and deletes tags in scope only', async () => {
    const { create, update, remove } = setup();
    const tag = await create.execute(anActor().build(), { name: 'prod', color: '#3B82F6', customerId: 11 });
    expect((await update.execute(anActor().build(), { ref: tag.publicId, name: 'production', color: '#ef4444' })).color).to.equal(
      '#EF4444',
    );
    await expectAppErrorAsync(() => update.execute(anActor().forCustomer(10).build(), { ref: tag.publicId, name: 'x' }), 'tagNotFound');
    await expectAppErrorAsync(() => remove.execute(anActor().forCustomer(10).build(), { ref: tag.publicId }), 'tagNotFound');
    await remove.execute(anActor().build(), { ref: tag.publicId });
    await expectAppErrorAsync(() => remove.execute(anActor().build(), { ref: tag.publicId }), 'tagNotFound');
  });

  it('attaches at most 5 tags per monitor, re-attaching succeeds, detaching is idempotent', async () => {
    const { h, create, attach, detach } = setup();
    const monitor = await h.writer.create(anActor().build(), 'website', { url: 'https://www.example.com/', customerId: 10 });
    const tags: Tag[] = [];
    for (let i = 0; i < 6; i++) tags.push(await create.execute(anActor().build(), { name: `t${i}`, color: '#3B82F6', customerId: 10 }));
    for (const tag of tags.slice(0, 5)) {
      expect(
        await attach.execute(anActor().build(), { tagId: tag.publicId, monitorId: monitor.publicId, monitorType: 'website' }),
      ).to.deep.equal({ alreadyAttached: false });
    }
    expect(
      await attach.execute(anActor().build(), { tagId: tags[0]!.publicId, monitorId: monitor.publicId, monitorType: 'website' }),
    ).to.deep.equal({ alreadyAttached: true });
    await expectAppErrorAsync(
      () => attach.execute(anActor().build(), { tagId: tags[5]!.publicId, monitorId: monitor.publicId, monitorType: 'website' }),
      'tagLimitReached',
    );
    await detach.execute(anActor().build(), { tagId: tags[0]!.publicId, monitorId: monitor.publicId, monitorType: 'website' });
    await detach.execute(anActor().build(), { tagId: tags[0]!.publicId, monitorId: monitor.publicId, monitorType: 'website' });
    expect(await h.tags.attachedTagIds(monitor.id)).to.have.length(4);
  });

  it('answers invalidMonitorType, tagNotFound, monitorNotFound and tagMonitorOrgMismatch', async () => {
    const { h, create, attach } = setup();
    const monitor = await h.writer.create(anActor().build(), 'website', { url: 'https://www.example.com/', customerId: 10 });
    const other = await create.execute(anActor().build(), { name: 'other', color: '#3B82F6', customerId: 11 });
    const tag = await create.execute(anActor().build(), { name: 'own', color: '#3B82F6', customerId: 10 });
    await expectAppErrorAsync(
      () => attach.execute(anActor().build(), { tagId: tag.publicId, monitorId: monitor.publicId, monitorType: 'dnsbl' }),
      'invalidMonitorType',
    );
    await expectAppErrorAsync(
      () => attach.execute(anActor().build(), { tagId: 'nope', monitorId: monitor.publicId, monitorType: 'website' }),
      'tagNotFound',
    );
    await expectAppErrorAsync(
      () => attach.execute(anActor().build(), { tagId: tag.publicId, monitorId: monitor.publicId, monitorType: 'dns' }),
      'monitorNotFound',
    );
    await expectAppErrorAsync(
      () => attach.execute(anActor().build(), { tagId: other.publicId, monitorId: monitor.publicId, monitorType: 'website' }),
      'tagMonitorOrgMismatch',
    );
    expect(h.monitors.locks).not.to.include(`monitor:${monitor.id}`);
    const everywhere = await create.execute(anActor().build(), { name: 'everywhere', color: '#3B82F6' });
    expect(
      await attach.execute(anActor().build(), { tagId: everywhere.publicId, monitorId: monitor.publicId, monitorType: 'website' }),
    ).to.deep.equal({ alreadyAttached: false });
  });
});
