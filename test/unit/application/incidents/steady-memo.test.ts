import { expect } from 'chai';
import { SteadyMemo } from '../../../../src/application/incidents/steady-memo';
import { FakeAlertStateChanges } from '../../../support/fakes/incidents-fakes';

async function following() {
  const memo = new SteadyMemo();
  const feed = new FakeAlertStateChanges();
  const stop = await memo.follow(feed);
  const remember = (monitorId: number, location: string) => {
    const watch = memo.watch();
    watch.remember(monitorId, location);
    watch.close();
  };
  return { memo, feed, stop, remember };
}

describe('SteadyMemo (steady monitors remembered while their changes are followed)', () => {
  it('remembers nothing while it follows no feed', () => {
    const memo = new SteadyMemo();
    const watch = memo.watch();
    watch.remember(7, 'eu');
    watch.close();
    expect(memo.knows(7, 'eu')).to.equal(false);
  });

  it('remembers a steady location of a monitor, per location', async () => {
    const { memo, remember } = await following();
    remember(7, 'eu');
    expect(memo.knows(7, 'eu')).to.equal(true);
    expect(memo.knows(7, 'us'), 'another location').to.equal(false);
    expect(memo.knows(8, 'eu'), 'another monitor').to.equal(false);
    remember(7, 'us');
    expect(memo.knows(7, 'eu') && memo.knows(7, 'us')).to.equal(true);
  });

  it('forgets a monitor whose state changed, and keeps the others', async () => {
    const { memo, feed, remember } = await following();
    remember(7, 'eu');
    remember(8, 'eu');
    feed.changed(7);
    expect(memo.knows(7, 'eu')).to.equal(false);
    expect(memo.knows(8, 'eu')).to.equal(true);
  });

  it('does not remember what was read of a monitor that changed while the states were being read', async () => {
    const { memo, feed } = await following();
    const watch = memo.watch();
    feed.changed(7);
    watch.remember(7, 'eu');
    watch.remember(8, 'eu');
    watch.close();
    expect(memo.knows(7, 'eu'), 'read before the change').to.equal(false);
    expect(memo.knows(8, 'eu'), 'unchanged').to.equal(true);
  });

  it('forgets everything when the feed is lost and remembers nothing until it is back', async () => {
    const { memo, feed, remember } = await following();
    remember(7, 'eu');
    const reading = memo.watch();
    feed.lost();
    expect(memo.knows(7, 'eu')).to.equal(false);
    remember(8, 'eu');
    expect(memo.knows(8, 'eu'), 'while lost').to.equal(false);
    feed.resumed();
    reading.remember(9, 'eu');
    reading.close();
    expect(memo.knows(9, 'eu'), 'read before the loss').to.equal(false);
    remember(8, 'eu');
    expect(memo.knows(8, 'eu'), 'after resuming').to.equal(true);
  });

  it('forgets everything and stops remembering once it stops following', async () => {
    const { memo, stop, remember } = await following();
    remember(7, 'eu');
    await stop();
    expect(memo.knows(7, 'eu')).to.equal(false);
    remember(7, 'eu');
    expect(memo.knows(7, 'eu')).to.equal(false);
  });

  it('remembers thirty locations and reads the states of monitors in any further one', async () => {
    const { memo, remember } = await following();
    for (let i = 0; i < 31; i++) remember(7, `loc${i}`);
    expect(memo.knows(7, 'loc0') && memo.knows(7, 'loc29')).to.equal(true);
    expect(memo.knows(7, 'loc30')).to.equal(false);
  });
});
