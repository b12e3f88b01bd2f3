import type { AlertStateChanges } from './ports';

/** Location codes get a bit each; a process serves a handful, so a monitor's set is one small integer. */
const MAX_LOCATIONS = 30;

/** Records changes that happen while states are being read: what was read of those monitors is stale. */
export interface MemoWatch {
  /** The state just read said this location's up results are steady: remember it, unless the state changed meanwhile. */
  remember(monitorId: number, location: string): void;
  close(): void;
}

/**
 * Which locations' up results are steady (`AlertState.isSteady`) for the monitors whose states
 * this process has read, kept only while a change feed (`follow`) says those states have not
 * changed since: the engine's batches then read only the states they do not know, and a steady
 * monitor's results are stored without reading anything. A change of any kind (the rules' locked
 * path, an incident resolved by hand, a deleted monitor) forgets the monitor; a lost feed forgets
 * everything and remembers nothing until it is back. A result judged steady from memory races
 * with a change committed elsewhere just before it, exactly as one judged from a state read a
 * moment earlier does: steady results never take the state's lock.
 */
export class SteadyMemo {
  /** Monitor id → one bit per location whose up results are steady. */
  private readonly steady = new Map<number, number>();
  private readonly bits = new Map<string, number>();
  private readonly watches = new Set<{ changed: Set<number>; all: boolean }>();
  private following = false;

  /** Whether an up result of this location of this monitor is steady, as far as this memo knows. */
  knows(monitorId: number, location: string): boolean {
    const bit = this.bits.get(location);
    return bit !== undefined && ((this.steady.get(monitorId) ?? 0) & bit) !== 0;
  }

  /** Take before reading states; what is read is remembered through it. */
  watch(): MemoWatch {
    const watch = { changed: new Set<number>(), all: false };
    this.watches.add(watch);
    return {
      remember: (monitorId, location) => {
        if (watch.all || watch.changed.has(monitorId) || !this.following) return;
        const bit = this.bitOf(location);
        if (bit !== 0) this.steady.set(monitorId, (this.steady.get(monitorId) ?? 0) | bit);
      },
      close: () => void this.watches.delete(watch),
    };
  }

  forget(monitorId: number): void {
    this.steady.delete(monitorId);
    for (const watch of this.watches) watch.changed.add(monitorId);
  }

  /** Remembers only while the feed runs; the answer stops following (and forgets everything). */
  async follow(changes: AlertStateChanges): Promise<() => Promise<void>> {
    const stop = await changes.listen({
      changed: (monitorId) => this.forget(monitorId),
      lost: () => this.forgetAll(false),
      resumed: () => this.forgetAll(true),
    });
    this.forgetAll(true);
    return async () => {
      this.forgetAll(false);
      await stop();
    };
  }

  private forgetAll(following: boolean): void {
    this.following = following;
    this.steady.clear();
    for (const watch of this.watches) watch.all = true;
  }

  private bitOf(location: string): number {
    let bit = this.bits.get(location);
    if (bit === undefined) {
      bit = this.bits.size < MAX_LOCATIONS ? 1 << this.bits.size : 0;
      this.bits.set(location, bit);
    }
    return bit;
  }
}
