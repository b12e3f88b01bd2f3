import { expect } from 'chai';
import { ManualClock } from '../../../support/manual-clock';
import { codeOf, expectAppErrorAsync } from '../../../support/expect-app-error';
import { FakeSharedRateCounter } from '../../../support/fakes/shared-fakes';
import { AdmitImEvent, IM_EVENT_CREDENTIALS } from '../../../../src/application/incident-management/admit-im-event';

const rule = { name: 'im-events', limit: 2, windowSeconds: 60 };

/** An organization (1) whose window is used up in this process, and the counter and clock behind it. */
async function overTheLimit() {
  const counter = new FakeSharedRateCounter();
  const clock = new ManualClock(new Date('2026-11-25T10:00:30.000Z'));
  const admit = new AdmitImEvent(counter, clock, rule);
  await admit.execute(1);
  await admit.execute(1);
  await expectAppErrorAsync(admit.execute(1), 'imEventRateLimited', { retryAfter: 30 });
  return { counter, clock, admit };
}

describe('refusing IM events from memory by the hash of the token', () => {
  it('refuses a credential admitted for an organization whose window is used up, with the retryAfter deciding gives', async () => {
    const { clock, admit } = await overTheLimit();
    expect(admit.refuseByCredential('digest-a')).to.equal(null); // not admitted yet: authenticated first
    admit.credentialAdmitted('digest-a', 1);
    expect(admit.refuseByCredential('digest-a')).to.equal(30);
    clock.advance(10_000);
    admit.credentialAdmitted('digest-a', 1);
    expect(admit.refuseByCredential('digest-a')).to.equal(20);
  });

  it('answers null (decide after admission) for another organization, a window not full, and a new window', async () => {
    const { clock, admit } = await overTheLimit();
    admit.credentialAdmitted('digest-b', 2);
    expect(admit.refuseByCredential('digest-b')).to.equal(null); // organization 2 has sent nothing
    expect(await codeOf(admit.execute(2))).to.equal(undefined);
    expect(admit.refuseByCredential('digest-b')).to.equal(null); // one of two
    admit.credentialAdmitted('digest-a', 1);
    clock.advance(30_000); // the next window: not read yet, so not refused from memory
    admit.credentialAdmitted('digest-a', 1);
    expect(admit.refuseByCredential('digest-a')).to.equal(null);
  });

  it('forgets a credential after the caller cache lifetime, so a revoked token is told so by authentication', async () => {
    const { clock, admit } = await overTheLimit();
    admit.credentialAdmitted('digest-a', 1);
    clock.advance(IM_EVENT_CREDENTIALS.ttlMs - 1);
    expect(admit.refuseByCredential('digest-a')).to.equal(26); // 25.001 s left of the window
    clock.advance(1);
    expect(admit.refuseByCredential('digest-a')).to.equal(null);
  });

  it('counts nothing and asks the shared counter nothing when it refuses', async () => {
    const { counter, admit } = await overTheLimit();
    await admit.write();
    const writes = counter.adds;
    const total = counter.total('im-events', '1');
    admit.credentialAdmitted('digest-a', 1);
    for (let i = 0; i < 100; i++) expect(admit.refuseByCredential('digest-a')).to.be.a('number');
    await admit.write();
    expect(counter.adds).to.equal(writes);
    expect(counter.total('im-events', '1')).to.equal(total);
  });
});
