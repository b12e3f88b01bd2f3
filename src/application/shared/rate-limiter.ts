import { token } from './token';
export interface RateLimitRule {
  /** Stable name of the limit, e.g. `agent-identity`. */
  readonly name: string;
  readonly limit: number;
  readonly windowSeconds: number;
}

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly remaining: number;
  /** Seconds until the current window ends. */
  readonly retryAfterSeconds: number;
}

/**
 * Counts hits per rule and key in a store shared by every instance of the service, so a limit
 * holds however many processes serve the API.
 */
export interface RateLimiter {
  hit(rule: RateLimitRule, key: string): Promise<RateLimitDecision>;
}
export const RATE_LIMITER = token<RateLimiter>('RateLimiter');

/**
 * The shared counter of a limit counted in the process and written in batches: one call adds the
 * hits a process admitted since its last call, for many keys of one window, and answers each key's
 * total in that window afterwards (every process's hits written so far included).
 */
export interface SharedRateCounter {
  add(rule: RateLimitRule, windowStart: Date, hits: ReadonlyMap<string, number>): Promise<Map<string, number>>;
}
export const SHARED_RATE_COUNTER = token<SharedRateCounter>('SharedRateCounter');
