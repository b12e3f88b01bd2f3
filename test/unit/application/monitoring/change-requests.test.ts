import { expect } from 'chai';
import { FileChangeRequest } from '../../../../src/application/monitoring/file-change-request';
import { SettleChangeRequest } from '../../../../src/application/monitoring/settle-change-request';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import { anActor, DEFAULT_USER_ID } from '../../../support/builders';
import { harness } from './harness';

async function setup() {
  const h = harness();
  const file = new FileChangeRequest(h.monitors, h.requests, h.writer, h.users, h.tx, h.ids, h.clock);
  const settle = new SettleChangeRequest(h.requests, h.monitors, h.writer, h.tx, h.clock);
  const monitor = await h.writer.create(anActor().build(), 'website', { url: 'https://www.example.com/', customerId: 10 });
  return { h, file, settle, monitor };
}

describe('change requests', () => {
  it('files an update for a managed monitor, checked like the PATCH it stands for', async () => {
    const { file, monitor } = await setup();
    const request = await file.execute(anActor().forCustomer(10).build(), {
      kind: 'website',
      ref: monitor.publicId,
      action: 'update',
      changes: { checkInterval: 10 },
    });
    expect(request).to.include({
      status: 'open',
      customerId: 10,
      monitorId: monitor.id,
      action: 'update',
      requestedByUserId: DEFAULT_USER_ID,
    });
    await expectAppErrorAsync(
      () =>
        file.execute(anActor().forCustomer(10).build(), {
          kind: 'website',
          ref: monitor.publicId,
          action: 'update',
          changes: { checkInterval: 5000 },
        }),
      'checkIntervalTooHigh',
    );
    await expectAppErrorAsync(
      () => file.execute(anActor().forCustomer(10).build(), { kind: 'website', ref: monitor.publicId, action: 'update', changes: {} }),
      'validationFailed',
    );
    await expectAppErrorAsync(
      () => file.execute(anActor().forCustomer(10).build(), { kind: 'website', ref: '999', action: 'delete' }),
      'websiteNotFound',
    );
  });

  it('allows 10 open requests per customer; the 11th answers tooManyOpenRequests with retryAfter', async () => {
    const { file, monitor } = await setup();
    for (let i = 0; i < 10; i++)
      await file.execute(anActor().forCustomer(10).build(), {
        kind: 'website',
        ref: monitor.publicId,
        action: 'update',
        changes: { name: `n${i}` },
      });
    await expectAppErrorAsync(
      () => file.execute(anActor().forCustomer(10).build(), { kind: 'website', ref: monitor.publicId, action: 'delete' }),
      'tooManyOpenRequests',
      { retryAfter: 3600 },
    );
  });

  it('refuses agents whose authorizing user is gone (authorizingUserUnresolved)', async () => {
    const { file, monitor } = await setup();
    await expectAppErrorAsync(
      () =>
        file.execute(anActor().forCustomer(10).asAgent().withoutUser().build(), {
          kind: 'website',
          ref: monitor.publicId,
          action: 'delete',
        }),
      'authorizingUserUnresolved',
    );
    await expectAppErrorAsync(
      () =>
        file.execute(anActor().forCustomer(10).asAgent().withUser('gone').build(), {
          kind: 'website',
          ref: monitor.publicId,
          action: 'delete',
        }),
      'authorizingUserUnresolved',
    );
    expect(
      (await file.execute(anActor().forCustomer(10).asAgent().build(), { kind: 'website', ref: monitor.publicId, action: 'delete' }))
        .status,
    ).to.equal('open');
  });

  it('applies an approved update, drops a rejected one, and settles once', async () => {
    const { h, file, settle, monitor } = await setup();
    const update = await file.execute(anActor().forCustomer(10).build(), {
      kind: 'website',
      ref: monitor.publicId,
      action: 'update',
      changes: { name: 'Renamed' },
    });
    const approved = await settle.execute(anActor().build(), { ref: update.publicId, status: 'approved', note: 'ok' });
    expect(approved).to.include({ status: 'approved', decisionNote: 'ok', decidedByUserId: DEFAULT_USER_ID });
    expect(h.monitors.rows.get(monitor.id)!.name).to.equal('Renamed');
    await expectAppErrorAsync(
      () => settle.execute(anActor().build(), { ref: update.publicId, status: 'rejected' }),
      'changeRequestAlreadySettled',
    );
    const other = await file.execute(anActor().forCustomer(10).build(), {
      kind: 'website',
      ref: monitor.publicId,
      action: 'update',
      changes: { name: 'Nope' },
    });
    await settle.execute(anActor().build(), { ref: other.publicId, status: 'rejected' });
    expect(h.monitors.rows.get(monitor.id)!.name).to.equal('Renamed');
  });

  it('deletes the monitor on an approved delete; customers may cancel but not approve', async () => {
    const { h, file, settle, monitor } = await setup();
    const request = await file.execute(anActor().forCustomer(10).build(), { kind: 'website', ref: monitor.publicId, action: 'delete' });
    await expectAppErrorAsync(
      () => settle.execute(anActor().forCustomer(10).build(), { ref: request.publicId, status: 'approved' }),
      'roleForbidden',
    );
    await settle.execute(anActor().build(), { ref: request.publicId, status: 'approved' });
    expect(h.monitors.rows.size).to.equal(0);
    await expectAppErrorAsync(() => settle.execute(anActor().build(), { ref: 'nope', status: 'approved' }), 'changeRequestNotFound');
  });

  it('keeps the request open when the change no longer applies', async () => {
    const { h, file, settle, monitor } = await setup();
    const request = await file.execute(anActor().forCustomer(10).build(), {
      kind: 'website',
      ref: monitor.publicId,
      action: 'update',
      changes: { checkInterval: 2 },
    });
    h.customers.set(10, { minCheckIntervalMinutes: 5 });
    await expectAppErrorAsync(
      () => settle.execute(anActor().build(), { ref: request.publicId, status: 'approved' }),
      'checkIntervalTooLow',
    );
    expect(h.requests.rows.get(request.id)!.status).to.equal('open');
    const cancelled = await settle.execute(anActor().forCustomer(10).build(), { ref: request.publicId, status: 'cancelled' });
    expect(cancelled.status).to.equal('cancelled');
  });
});
