import type { LiveLocations } from './ports';

/** How long the recording path trusts a read of the live locations. */
export const LIVE_LOCATIONS_TTL_MS = 1000;

/**
 * The live locations read at most once per `ttlMs` (the recording path asks once per judged
 * batch; several batches at once share one read). A failed read is not kept. A location that
 * comes back is seen at the latest `ttlMs` later, and at once by its own results (a location
 * reporting is live).
 */
export class CachedLiveLocations implements LiveLocations {
  private cached: { readonly atMs: number; readonly codes: Promise<readonly string[]> } | null = null;

  constructor(
    private readonly source: LiveLocations,
    private readonly ttlMs: number,
  ) {}

  live(now: Date): Promise<readonly string[]> {
    const atMs = now.getTime();
    const cached = this.cached;
    if (cached && atMs >= cached.atMs && atMs - cached.atMs < this.ttlMs) return cached.codes;
    const codes = this.source.live(now);
    const entry = { atMs, codes };
    this.cached = entry;
    codes.catch(() => {
      if (this.cached === entry) this.cached = null;
    });
    return codes;
  }
}
