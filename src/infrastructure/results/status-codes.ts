import type { CheckStatus } from '../../domain/results/check-status';

/** Stored as a smallint to keep result rows narrow. */
export const STATUS_CODE: Record<CheckStatus, number> = { up: 1, degraded: 2, down: 3 };
export const STATUS_OF: Record<number, CheckStatus> = { 1: 'up', 2: 'degraded', 3: 'down' };

/** A stored status code's word, in SQL (from STATUS_OF), for JSON that PostgreSQL writes itself. */
export const statusWordSql = (column: string): string =>
  `(CASE ${column} ${Object.entries(STATUS_OF)
    .map(([code, word]) => `WHEN ${code} THEN '${word}'`)
    .join(' ')} END)`;
