import { RESPONSE_BUCKET_EDGES } from '../../domain/results/response-histogram';
import { raw, sql, type Sql } from '../persistence/sql';

/** The histogram buckets as a PostgreSQL array (width_bucket numbers them as bucketOf does). */
export const BUCKET_EDGES_SQL: Sql = raw(`ARRAY[${RESPONSE_BUCKET_EDGES.join(',')}]::integer[]`);

/** coverageSeconds() of the domain, for a check interval column (fixed text: 60 s when unknown). */
export const coverageSecondsSql = (intervalColumn: string): Sql =>
  raw(`(COALESCE(${intervalColumn}, 60) + GREATEST(60, ceil(COALESCE(${intervalColumn}, 60) / 2.0)))`);

/** Seconds of [checked_at, min(next_at, checked_at + cap)) inside [start, end). */
export const coveredSecondsSql = (cap: Sql, start: Sql, end: Sql): Sql =>
  sql`GREATEST(0, EXTRACT(EPOCH FROM (LEAST(COALESCE(next_at, ${end}), checked_at + ${cap} * interval '1 second', ${end}) - GREATEST(checked_at, ${start}))))`;
