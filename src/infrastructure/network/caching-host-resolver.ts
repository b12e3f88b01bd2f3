import { performance } from 'node:perf_hooks';
import type { HostResolver, TtlHostResolver } from './node-dns-resolver';

export interface DnsCacheSettings {
  /** Most names kept; past it the least recently used is forgotten. 0 keeps nothing. */
  readonly maxEntries: number;
  /** How long a name without addresses (NXDOMAIN, no record) is kept at most. */
  readonly negativeTtlMs?: number;
  /** How long any answer is kept at most, whatever its TTL. */
  readonly maxTtlMs?: number;
}

/** A name that does not resolve is asked again after this long at most: it may be created any moment. */
export const NEGATIVE_TTL_MS = 5_000;
/** No answer is kept longer than this, a long TTL notwithstanding. */
export const MAX_TTL_MS = 300_000;

interface Entry {
  readonly addresses: string[];
  readonly until: number;
}

/**
 * The answers of one resolver, kept for their TTL (bounded by `maxTtlMs`; names without addresses for
 * `negativeTtlMs` at most; a failed or half-failed question not at all), at most `maxEntries` names,
 * least recently used forgotten first. Questions for a name already being asked wait for that answer.
 * Only answers are kept, never verdicts: the target policy judges the addresses on every vetting, and
 * every connection is pinned to addresses so judged. One cache per resolver: another resolver (other
 * servers) never sees these answers.
 */
export class CachingHostResolver implements HostResolver {
  private readonly entries = new Map<string, Entry>();
  private readonly asking = new Map<string, Promise<string[]>>();
  private readonly negativeTtlMs: number;
  private readonly maxTtlMs: number;

  constructor(
    private readonly resolver: TtlHostResolver,
    private readonly settings: DnsCacheSettings,
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    this.negativeTtlMs = settings.negativeTtlMs ?? NEGATIVE_TTL_MS;
    this.maxTtlMs = settings.maxTtlMs ?? MAX_TTL_MS;
  }

  /** Names kept now (expired ones included until they are asked for or pushed out). */
  get size(): number {
    return this.entries.size;
  }

  resolveAddresses(name: string): Promise<string[]> {
    const key = name.toLowerCase();
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      if (entry.until > this.nowMs()) {
        this.entries.set(key, entry); // most recently used last
        return Promise.resolve([...entry.addresses]);
      }
    }
    const pending = this.asking.get(key);
    if (pending) return pending.then((addresses) => [...addresses]);
    const asked = this.ask(key);
    this.asking.set(key, asked);
    return asked.finally(() => this.asking.delete(key)).then((addresses) => [...addresses]);
  }

  private async ask(key: string): Promise<string[]> {
    const answer = await this.resolver.resolveWithTtl(key);
    const keepMs = answer.negative ? this.negativeTtlMs : Math.min(answer.ttlSeconds * 1000, this.maxTtlMs);
    if (keepMs > 0 && this.settings.maxEntries > 0) {
      while (this.entries.size >= this.settings.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { addresses: answer.addresses, until: this.nowMs() + keepMs });
    }
    return answer.addresses;
  }
}
