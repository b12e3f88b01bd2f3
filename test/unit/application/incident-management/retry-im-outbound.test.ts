import { expect } from 'chai';
import { RetryImOutbound } from '../../../../src/application/incident-management/retry-im-outbound';
import { anActor } from '../../../support/builders';
import { codeOf, expectAppErrorAsync } from '../../../support/expect-app-error';
import { ManualClock } from '../../../support/manual-clock';
import { FakeRateLimiter, immediateTransactions } from '../../../support/fakes/shared-fakes';
import { FakeImOutbound } from '../../../support/fakes/incident-management-fakes';

describe('RetryImOutbound (manual retry of a failed IM page)', () => {
  let outbound: FakeImOutbound;
  let retry: RetryImOutbound;
  let clock: ManualClock;
  const admin = anActor().build();
  const stranger = anActor().inOrganization(2).build();

  beforeEach(() => {
    clock = new ManualClock('2026-06-01T10:00:00Z');
    outbound = new FakeImOutbound().page(1, 'failed-mail', 'failed').page(1, 'sent', 'delivered').page(1, 'failed-sms', 'failed', 'sms');
    retry = new RetryImOutbound(outbound, new FakeRateLimiter(17), clock, immediateTransactions);
  });

  it('puts a failed page back in the queue, due now', async () => {
    expect(await retry.execute(admin, 'failed-mail')).to.deep.equal({ id: 'failed-mail', status: 'pending', integration: 'email' });
    expect(outbound.rows.get('failed-mail')).to.include({ status: 'pending' });
    expect(outbound.rows.get('failed-mail')!.dueAt).to.deep.equal(clock.now());
  });

  it("answers imOutboundNotFound for a missing page or another organization's, imOutboundNotFailed for one not failed", async () => {
    expect(await codeOf(retry.execute(admin, 'nope'))).to.equal('imOutboundNotFound');
    expect(await codeOf(retry.execute(stranger, 'failed-mail'))).to.equal('imOutboundNotFound');
    expect(await codeOf(retry.execute(admin, 'sent'))).to.equal('imOutboundNotFailed');
  });

  it('allows 10 retries per minute per integration, then imOutboundRetryRateLimited with data.retryAfter; other integrations are unaffected', async () => {
    for (let i = 0; i < 10; i += 1) {
      outbound.page(1, 'failed-mail', 'failed');
      await retry.execute(admin, 'failed-mail');
    }
    outbound.page(1, 'failed-mail', 'failed');
    const error = await expectAppErrorAsync(retry.execute(admin, 'failed-mail'), 'imOutboundRetryRateLimited');
    expect(error.details).to.include({ retryAfter: 17 });
    expect(outbound.rows.get('failed-mail')!.status).to.equal('failed');
    expect((await retry.execute(admin, 'failed-sms')).status).to.equal('pending');
  });
});
