import { expect } from 'chai';
import { FileChangeRequest } from '../../../../src/application/monitoring/file-change-request';
import { SettleChangeRequest } from '../../../../src/application/monitoring/settle-change-request';
import { AttachTag } from '../../../../src/application/monitoring/attach-tag';
import { CreateTag } from '../../../../src/application/monitoring/create-tag';
import { anActor } from '../../../support/builders';
import { harness } from './harness';

/**
 * The monitoring use cases that run in TransactionRunner.run hand its `tx` to every write and lock
 * that must commit (or hold) with the others: the write ports take it as their last parameter.
 */
describe('monitoring use cases pass their transaction on to the write ports', () => {
  it('create and update: the customer lock, the reads after it, the insert and the save join the transaction the runner handed', async () => {
    const h = harness();
    const monitor = await h.writer.create(anActor().build(), 'website', { url: 'https://www.example.com/', customerId: 10 });
    const [created] = h.tx.handed;
    // The reads inside the transaction run on its connection: a pool read there holds one connection while waiting for another.
    expect(h.monitors.joined).to.deep.equal([
      ['lockCustomer', created],
      ['countForCustomer', created],
      ['add', created],
    ]);
    expect(h.customers.readIn).to.deep.equal([created]);
    h.monitors.joined.length = 0;
    await h.writer.update(anActor().build(), monitor, { name: 'Renamed', managementType: 'self_service' }, null);
    const updated = h.tx.handed[1];
    expect(updated).not.to.equal(created);
    expect(h.monitors.joined).to.deep.equal([
      ['findByRefIn', updated],
      ['lockCustomer', updated],
      ['countForCustomer', updated],
      ['save', updated],
    ]);
  });

  it('a change request is filed under the customer lock, and its approval deletes the monitor in the same transaction as its settling', async () => {
    const h = harness();
    const file = new FileChangeRequest(h.monitors, h.requests, h.writer, h.users, h.tx, h.ids, h.clock);
    const settle = new SettleChangeRequest(h.requests, h.monitors, h.writer, h.tx, h.clock);
    const monitor = await h.writer.create(anActor().build(), 'website', { url: 'https://www.example.com/', customerId: 10 });
    h.monitors.joined.length = 0;
    const request = await file.execute(anActor().forCustomer(10).build(), { kind: 'website', ref: monitor.publicId, action: 'delete' });
    const filed = h.tx.handed[1];
    expect(h.monitors.joined).to.deep.equal([['lockCustomer', filed]]);
    expect(h.requests.joined).to.deep.equal([['add', filed]]);

    h.monitors.joined.length = 0;
    await settle.execute(anActor().build(), { ref: request.publicId, status: 'approved' });
    const settled = h.tx.handed[2];
    expect(h.monitors.joined).to.deep.equal([
      ['findByRefIn', settled],
      ['remove', settled],
    ]);
    expect(h.requests.joined.at(-1)).to.deep.equal(['save', settled]);
  });

  it('attaching a tag locks the monitor and attaches in the one transaction', async () => {
    const h = harness();
    const monitor = await h.writer.create(anActor().build(), 'website', { url: 'https://www.example.com/', customerId: 10 });
    const tag = await new CreateTag(h.tags, h.customers, h.users, h.ids, h.clock, h.tx).execute(anActor().build(), {
      name: 'prod',
      color: '#3B82F6',
      customerId: 10,
    });
    h.monitors.joined.length = 0;
    await new AttachTag(h.tags, h.monitors, h.tx).execute(anActor().build(), {
      tagId: tag.publicId,
      monitorId: monitor.publicId,
      monitorType: 'website',
    });
    const attached = h.tx.handed.at(-1);
    expect(h.monitors.joined).to.deep.equal([['lockMonitor', attached]]);
    expect(h.tags.joined).to.deep.equal([['attach', attached]]);
  });
});
