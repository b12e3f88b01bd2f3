import type { ProbeCredentials, ProbeIdentity } from '../locations/ports';
import type { Clock } from '../shared/clock';

/** Most keys remembered (a flood of made-up keys only churns the cache). */
const MAX_ENTRIES = 10_000;

/**
 * Probe keys remembered for `ttlMs` (answers and refusals alike): a probe calls several times a
 * second, and each call would otherwise look its key up. A revoked key is refused within `ttlMs`.
 */
export class CachedProbeCredentials implements ProbeCredentials {
  private readonly entries = new Map<string, { identity: ProbeIdentity | null; until: number }>();

  constructor(
    private readonly inner: ProbeCredentials,
    private readonly clock: Clock,
    private readonly ttlMs = 10_000,
  ) {}

  /** Whether `secret` is a key this cache holds as valid now (a call with it needs no lookup). */
  knows(secret: string): boolean {
    const cached = this.entries.get(secret);
    return cached !== undefined && cached.identity !== null && cached.until > this.clock.now().getTime();
  }

  async authenticate(secret: string, now: Date): Promise<ProbeIdentity | null> {
    const cached = this.entries.get(secret);
    const at = this.clock.now().getTime();
    if (cached && cached.until > at) return cached.identity;
    const identity = await this.inner.authenticate(secret, now);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(secret, { identity, until: at + this.ttlMs });
    return identity;
  }
}
