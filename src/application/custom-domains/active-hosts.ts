import type { Clock } from '../shared/clock';
import type { ActiveHost, ActiveHostDirectory } from './ports';

/** How long a host's answer (found or not) is reused; changes in this process clear it at once. */
export const ACTIVE_HOST_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/**
 * Host routing's lookup with a short cache: every request under any host asks, so answers (including
 * "no such domain") are kept a few seconds. Changes made by this process forget the host at once;
 * other processes see them within the TTL.
 */
export class ActiveHosts {
  private readonly cache = new Map<string, { host: ActiveHost | null; until: number }>();

  constructor(
    private readonly directory: ActiveHostDirectory,
    private readonly clock: Clock,
    private readonly ttlMs = ACTIVE_HOST_TTL_MS,
  ) {}

  async find(hostname: string): Promise<ActiveHost | null> {
    const now = this.clock.now().getTime();
    const cached = this.cache.get(hostname);
    if (cached && cached.until > now) return cached.host;
    const host = await this.directory.find(hostname);
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    this.cache.set(hostname, { host, until: now + this.ttlMs });
    return host;
  }

  forget(hostname: string): void {
    this.cache.delete(hostname);
  }
}
