import type { CheckStatus } from '../../domain/results/check-status';

/** Stored as a smallint to keep result rows narrow. */
export const STATUS_CODE: Record<CheckStatus, number> = { up: 1, degraded: 2, down: 3 };
export const STATUS_OF: Record<number, CheckStatus> = { 1: 'up', 2: 'degraded', 3: 'down' };
