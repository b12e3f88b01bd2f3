import { AsyncLocalStorage } from 'node:async_hooks';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { ContextStore } from '../../../../src/infrastructure/persistence/context-store';

const ROOT = path.resolve(__dirname, '../../../..');

/** Node 20 and 22-23 keep AsyncLocalStorage on async hooks; Node 24 in a context frame. */
const onAsyncHooks = typeof (AsyncLocalStorage.prototype as { _propagate?: unknown })._propagate === 'function';

describe('ContextStore', () => {
  it('gives its value to the work and everything it starts, across awaits and timers, and nothing outside', async () => {
    const store = new ContextStore<string>();
    const seen = await store.run('request 1', async () => {
      const inside = store.current;
      await sleep(1);
      const afterTimer = await new Promise((resolve) => setImmediate(() => resolve(store.current)));
      return { inside, afterTimer };
    });
    expect(seen).to.deep.equal({ inside: 'request 1', afterTimer: 'request 1' });
    expect(store.current).to.equal(undefined);
    expect(store.run('sync', () => store.current)).to.equal('sync');
  });

  it('keeps each run its own value while runs overlap, and a nested run its own inside the outer', async () => {
    const store = new ContextStore<string>();
    let releaseFirst!: () => void;
    const firstMayEnd = new Promise<void>((resolve) => (releaseFirst = resolve));
    const first = store.run('first', async () => {
      await firstMayEnd;
      return store.current;
    });
    const second = store.run('second', async () => {
      const nested = await store.run('nested', async () => {
        await sleep(1);
        return store.current;
      });
      releaseFirst();
      await sleep(5); // the first has ended by now: this one is still held
      return { nested, after: store.current };
    });
    expect(await first).to.equal('first');
    expect(await second).to.deep.equal({ nested: 'nested', after: 'second' });
  });

  it('holds a value given to runUntil until its release is called, however soon the work returned', async () => {
    const store = new ContextStore<string>();
    let release!: () => void;
    let later!: Promise<string | undefined>;
    store.runUntil(
      'request',
      () => {
        later = sleep(5).then(() => store.current);
      },
      (handed) => (release = handed),
    );
    expect(await later).to.equal('request');
    release();
    release(); // a second call changes nothing
    expect(store.run('next', () => store.current)).to.equal('next');
  });

  it('releases the value when the work throws or its promise rejects', async () => {
    const store = new ContextStore<string>();
    expect(() =>
      store.run('sync', () => {
        throw new Error('refused');
      }),
    ).to.throw('refused');
    const rejected = await store
      .run('async', async () => {
        await sleep(1);
        throw new Error('refused later');
      })
      .catch((error: Error) => error.message);
    expect(rejected).to.equal('refused later');
    expect(store.run('next', () => store.current)).to.equal('next');
  });

  it('on async hooks (Node 20, 22-23), turns them off once the last run has ended, and a timer the work left sees no value', () => {
    // In a node of its own: a store another file of this worker left on would keep the hooks on.
    const seen: unknown = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/support/context-store-hooks.ts')], { encoding: 'utf8' }),
    );
    expect(seen).to.deep.equal(
      onAsyncHooks
        ? {
            before: false,
            duringSecond: { value: 2, tracked: true },
            whileFirstHeld: true,
            afterBoth: false,
            leftSees: null,
            afterRejected: false,
          }
        : // a context frame: no hooks at all, and a timer keeps the value it was started with
          {
            before: false,
            duringSecond: { value: 2, tracked: false },
            whileFirstHeld: false,
            afterBoth: false,
            leftSees: 3,
            afterRejected: false,
          },
    );
  });
});
