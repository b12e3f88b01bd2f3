import { AppError } from '../../domain/shared/app-error';
import type { RateLimitRule, RateLimiter } from '../shared/rate-limiter';

/** Limits table: agent identity registration and token exchange, per caller (client address). */
export const AGENT_IDENTITY_LIMIT: RateLimitRule = { name: 'agent-identity', limit: 30, windowSeconds: 60 };
export const AGENT_TOKEN_LIMIT: RateLimitRule = { name: 'agent-token', limit: 60, windowSeconds: 60 };

/** Throws 429 rateLimited with data.retryAfter once the caller used up the window. */
export async function enforceRateLimit(limiter: RateLimiter, rule: RateLimitRule, callerKey: string): Promise<void> {
  const decision = await limiter.hit(rule, callerKey);
  if (!decision.allowed) throw new AppError('rateLimited', { retryAfter: decision.retryAfterSeconds });
}
