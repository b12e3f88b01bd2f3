import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { GroupCommitter } from '../../../../src/application/shared/group-committer';

/** A commit that records its batches and answers each item doubled, after `delayMs`; items named in `failing` fail their batch. */
function recordingCommit(delayMs = 0, failing: ReadonlySet<number> = new Set()) {
  const batches: number[][] = [];
  const commit = async (items: readonly number[]) => {
    batches.push([...items]);
    await sleep(delayMs);
    if (items.some((i) => failing.has(i))) throw new Error(`batch with ${items.join(',')} refused`);
    return items.map((i) => i * 2);
  };
  return { batches, commit };
}

describe('group committer', () => {
  it('sends a batch as soon as it holds maxSize items, without waiting', async () => {
    const { batches, commit } = recordingCommit();
    const committer = new GroupCommitter(commit, { maxSize: 3, maxWaitMs: 60_000 });
    const started = Date.now();
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => committer.submit(i)));
    expect(Date.now() - started).to.be.below(1_000);
    expect(results).to.deep.equal([2, 4, 6, 8, 10, 12]);
    expect(batches).to.deep.equal([
      [1, 2, 3],
      [4, 5, 6],
    ]);
  });

  it('sends a batch that is not full maxWaitMs after its first item, with everything that came meanwhile', async () => {
    const { batches, commit } = recordingCommit();
    const committer = new GroupCommitter(commit, { maxSize: 100, maxWaitMs: 40 });
    const started = Date.now();
    const first = committer.submit(1);
    await sleep(10);
    const second = committer.submit(2);
    expect(batches).to.deep.equal([]);
    expect(await first).to.equal(2);
    expect(await second).to.equal(4);
    const waited = Date.now() - started;
    expect(waited).to.be.at.least(35).and.below(1_000);
    expect(batches).to.deep.equal([[1, 2]]);
    // The next item starts a new wait: a batch of its own.
    expect(await committer.submit(3)).to.equal(6);
    expect(batches).to.deep.equal([[1, 2], [3]]);
  });

  it('answers no item before its batch is committed', async () => {
    const { commit } = recordingCommit(50);
    const committer = new GroupCommitter(commit, { maxSize: 2, maxWaitMs: 1 });
    let answered = false;
    const pending = committer.submit(1).then(() => (answered = true));
    await sleep(20);
    expect(answered).to.equal(false);
    expect(committer.inFlight).to.equal(1);
    await pending;
    expect(answered).to.equal(true);
    expect(committer.inFlight).to.equal(0);
  });

  it('fails only the items of a failed batch, with its error; other batches commit', async () => {
    const { batches, commit } = recordingCommit(5, new Set([5]));
    const committer = new GroupCommitter(commit, { maxSize: 2, maxWaitMs: 1 });
    const outcomes = await Promise.allSettled([1, 2, 3, 4, 5, 6, 7].map((i) => committer.submit(i)));
    expect(batches).to.deep.equal([[1, 2], [3, 4], [5, 6], [7]]);
    expect(outcomes.map((o) => o.status)).to.deep.equal([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect((outcomes[4] as PromiseRejectedResult).reason.message).to.equal('batch with 5,6 refused');
    expect(outcomes.filter((o) => o.status === 'fulfilled').map((o) => (o as PromiseFulfilledResult<number>).value)).to.deep.equal([
      2, 4, 6, 8, 14,
    ]);
  });

  it('fails the batch whose commit answers a result count that does not match', async () => {
    const committer = new GroupCommitter(async (items: readonly number[]) => items.slice(1), { maxSize: 2, maxWaitMs: 1 });
    const outcomes = await Promise.allSettled([committer.submit(1), committer.submit(2)]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected']);
  });

  it('with weights, never splits an item: one that would overflow the open batch opens the next, one heavier than maxSize goes alone', async () => {
    const batches: string[][] = [];
    const committer = new GroupCommitter(
      async (items: readonly string[]) => {
        batches.push([...items]);
        return items.map((i) => i.length);
      },
      { maxSize: 5, maxWaitMs: 20 },
      (item: string) => item.length,
    );
    const results = await Promise.all(['aa', 'bb', 'cc', 'd', 'eeeeeeeee', 'f', 'gg', 'hhh'].map((i) => committer.submit(i)));
    expect(results).to.deep.equal([2, 2, 2, 1, 9, 1, 2, 3]);
    // 'cc' would make 6: [aa, bb] is sealed; 'eeeeeeeee' (9) seals [cc, d] and fills one of its own;
    // 'hhh' would make 6 with [f, gg]: sealed, and 'hhh' waits its maxWaitMs alone.
    expect(batches).to.deep.equal([['aa', 'bb'], ['cc', 'd'], ['eeeeeeeee'], ['f', 'gg'], ['hhh']]);
  });

  it('refuses bounds that cannot form a batch', () => {
    expect(() => new GroupCommitter(async () => [], { maxSize: 0, maxWaitMs: 1 })).to.throw(RangeError);
  });
});

describe('group committer under load', () => {
  it('commits at most maxConcurrent batches at once; meanwhile the open batch grows and goes as soon as one finishes', async () => {
    let committing = 0;
    let most = 0;
    const batches: number[][] = [];
    const committer = new GroupCommitter(
      async (items: readonly number[]) => {
        batches.push([...items]);
        most = Math.max(most, ++committing);
        await sleep(30);
        committing--;
        return items.map((i) => i * 2);
      },
      { maxSize: 100, maxWaitMs: 1, maxConcurrent: 1 },
    );
    const first = committer.submit(1);
    await sleep(10);
    // While [1] commits, these wait together (their maxWaitMs passes), and go as one batch when it finishes.
    const rest = [2, 3, 4].map((i) => committer.submit(i));
    await sleep(5);
    const late = committer.submit(5);
    expect(await Promise.all([first, ...rest, late])).to.deep.equal([2, 4, 6, 8, 10]);
    expect(most).to.equal(1);
    expect(batches).to.deep.equal([[1], [2, 3, 4, 5]]);
  });

  it('seals a full batch while the slots are taken and sends the sealed batches in order', async () => {
    const batches: number[][] = [];
    const committer = new GroupCommitter(
      async (items: readonly number[]) => {
        batches.push([...items]);
        await sleep(10);
        return items;
      },
      { maxSize: 2, maxWaitMs: 1, maxConcurrent: 1 },
    );
    await Promise.all([1, 2, 3, 4, 5, 6, 7].map((i) => committer.submit(i)));
    expect(batches).to.deep.equal([[1, 2], [3, 4], [5, 6], [7]]);
  });
});
