import type { Caller } from '../../application/identity/authenticate-caller';

/**
 * Resolved callers by credential digest, kept a few seconds so authenticating a request costs a map
 * lookup instead of a database round trip. Writes that change credentials, users or organizations
 * clear it in this process; other processes see the change when their entry expires, which is the
 * "state is cached briefly" of the organization status gate.
 */
export class CallerCache {
  private readonly entries = new Map<string, { caller: Caller | null; until: number }>();

  constructor(
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 50_000,
  ) {}

  get(key: string, nowMs: number): Caller | null | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.caller;
  }

  set(key: string, caller: Caller | null, nowMs: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const expiresAt = caller?.expiresAt?.getTime() ?? Infinity;
    this.entries.set(key, { caller, until: Math.min(nowMs + this.ttlMs, expiresAt) });
  }

  clear(): void {
    this.entries.clear();
  }
}
