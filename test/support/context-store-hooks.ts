/**
 * Run by test/unit/infrastructure/persistence/context-store.test.ts in a node of its own (no other
 * store entered before, so what it reads of the async hooks is this store's doing): prints, as JSON,
 * what a ContextStore's runs leave of the hooks.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ContextStore } from '../../src/infrastructure/persistence/context-store';

/** On async hooks a tracked promise carries its async id; node turns its promise hooks off at the next tick. */
async function promisesTracked(): Promise<boolean> {
  await sleep(1);
  return Object.getOwnPropertySymbols(Promise.resolve()).length > 0;
}

async function main() {
  const store = new ContextStore<number>();
  const before = await promisesTracked();
  let release!: () => void;
  store.runUntil(
    1,
    () => undefined,
    (handed) => (release = handed),
  );
  const duringSecond = await store.run(2, async () => {
    await sleep(1);
    return { value: store.current, tracked: Object.getOwnPropertySymbols(Promise.resolve()).length > 0 };
  });
  const whileFirstHeld = await promisesTracked();
  release();
  const afterBoth = await promisesTracked();
  let left!: Promise<number | undefined>;
  await store.run(3, async () => {
    left = sleep(10).then(() => store.current);
  });
  const leftSees = (await left) ?? null;
  await store
    .run(4, async () => {
      await sleep(1);
      throw new Error('refused');
    })
    .catch(() => undefined);
  const afterRejected = await promisesTracked();
  process.stdout.write(JSON.stringify({ before, duringSecond, whileFirstHeld, afterBoth, leftSees, afterRejected }));
}

void main();
