import { Migration } from '@mikro-orm/migrations';

/**
 * Smaller result storage (issue 51's storage goal), existing data carried forward:
 * - compact results packed per monitor, location and UTC day instead of per hour
 *   (check_result_hours keeps its name; its `hour` column is now the day's midnight): a row's fixed
 *   costs (tuple header, key, index entry, array headers) are paid once a day, and a monitor checked
 *   hourly no longer pays a whole row per result;
 * - rollup histograms as a packed bytea of 4-byte words (bucket << 24 | count, buckets ascending,
 *   empty buckets left out) instead of a JSON object: a few bytes per non-empty bucket;
 * - evidence digests of 16 bytes (the first half of the SHA-256 of the evidence's JSON text) instead of 32, and evidence
 *   compressed in its row like the compact rows (it is rarely over the 2 KB PostgreSQL compresses at);
 *   evidence a day saw once stays in its compact row's details (compressed with its neighbours).
 */
export class Migration20270214090000CompactResultDays extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      -- A packed histogram's entries (readers and the daily merge); '' (or anything shorter than a word) has none.
      CREATE FUNCTION check_histogram_entries(h bytea) RETURNS TABLE (bucket integer, n bigint)
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
        SELECT get_byte(h, 4 * i), (get_byte(h, 4 * i + 1) * 65536 + get_byte(h, 4 * i + 2) * 256 + get_byte(h, 4 * i + 3))::bigint
        FROM generate_series(0, length(h) / 4 - 1) AS i
      $fn$;

      ALTER TABLE check_result_rollups ADD COLUMN packed_histogram bytea NOT NULL DEFAULT ''::bytea;
      UPDATE check_result_rollups r SET packed_histogram = COALESCE((
        SELECT string_agg(int4send((e.key::integer * 16777216 + LEAST(e.value::bigint, 16777215))::integer), ''::bytea ORDER BY e.key::integer)
        FROM jsonb_each_text(r.histogram) e WHERE e.value::bigint > 0), ''::bytea);
      ALTER TABLE check_result_rollups DROP COLUMN histogram;
      ALTER TABLE check_result_rollups RENAME COLUMN packed_histogram TO histogram;
      ALTER TABLE check_result_rollups ALTER COLUMN histogram DROP DEFAULT;

      -- Evidence: 16-byte digests, compressed in the row.
      ALTER TABLE check_result_evidence SET (toast_tuple_target = 128);
      ALTER TABLE check_result_evidence ALTER COLUMN evidence SET STORAGE MAIN;
      DO $lz4$ BEGIN
        ALTER TABLE check_result_evidence ALTER COLUMN evidence SET COMPRESSION lz4;
      EXCEPTION WHEN feature_not_supported THEN NULL;
      END $lz4$;
      UPDATE check_result_evidence SET digest = substring(digest FOR 16), evidence = evidence;

      -- Compact hours repacked into compact days (details keep their evidence references).
      CREATE TEMP TABLE compact_day_results ON COMMIT DROP AS
        SELECT h.monitor_id, h.location_id, date_bin('1 day', h.hour, timestamptz 'epoch') AS day,
               h.hour + o.off * interval '1 millisecond' AS checked_at,
               COALESCE(h.statuses[o.i], 1)::smallint AS status, h.response_ms[o.i] AS response_ms,
               h.reasons[o.i] AS reason, h.details -> o.i::text AS detail
        FROM check_result_hours h CROSS JOIN LATERAL unnest(h.offsets_ms) WITH ORDINALITY AS o(off, i);
      TRUNCATE check_result_hours;
      INSERT INTO check_result_hours (monitor_id, hour, location_id, offsets_ms, statuses, response_ms, reasons, details)
        SELECT n.monitor_id, n.day, n.location_id,
          array_agg(round(EXTRACT(EPOCH FROM n.checked_at - n.day) * 1000)::integer ORDER BY n.i),
          CASE WHEN bool_and(n.status = 1) THEN NULL ELSE array_agg(n.status ORDER BY n.i) END,
          CASE WHEN bool_and(n.response_ms IS NULL) THEN NULL ELSE array_agg(n.response_ms ORDER BY n.i) END,
          CASE WHEN bool_and(COALESCE(n.reason, 0) = 0) THEN NULL ELSE array_agg(COALESCE(n.reason, 0)::smallint ORDER BY n.i) END,
          jsonb_object_agg(n.i, n.detail) FILTER (WHERE n.detail IS NOT NULL)
        FROM (SELECT c.*, row_number() OVER (PARTITION BY c.monitor_id, c.day, c.location_id ORDER BY c.checked_at) AS i
              FROM compact_day_results c) n
        GROUP BY n.monitor_id, n.day, n.location_id;

      -- The results of one compact row as raw rows (inlined by the planner). A day row's arrays are
      -- long and compressed: each is unnested (so decompressed) once, and the details expanded once,
      -- rather than subscripted per result, which would decompress the whole array for each one.
      CREATE OR REPLACE FUNCTION check_result_hour_rows(h check_result_hours)
      RETURNS TABLE (monitor_id bigint, checked_at timestamptz, location_id smallint, status smallint,
                     response_ms integer, reason_code text, detail jsonb)
      LANGUAGE sql STABLE AS $fn$
        SELECT h.monitor_id, h.hour + o.off * interval '1 millisecond', h.location_id,
               COALESCE(o.st, 1)::smallint, o.ms,
               (SELECT c.code FROM check_reason_codes c WHERE c.id = NULLIF(o.rs, 0)),
               CASE WHEN d.value ? '$e'
                    THEN (d.value - '$e') || jsonb_build_object('evidence', (SELECT e.evidence FROM check_result_evidence e WHERE e.id = (d.value ->> '$e')::bigint))
                    ELSE d.value END
        FROM unnest(h.offsets_ms, h.statuses, h.response_ms, h.reasons) WITH ORDINALITY AS o(off, st, ms, rs, i)
        LEFT JOIN jsonb_each(h.details) AS d(key, value) ON d.key = o.i::text
      $fn$;

      -- Results of one monitor in [p_from, p_to), raw and compact alike: a compact row holds a day.
      CREATE OR REPLACE FUNCTION check_results_between(p_monitor bigint, p_from timestamptz, p_to timestamptz)
      RETURNS TABLE (monitor_id bigint, checked_at timestamptz, location_id smallint, status smallint,
                     response_ms integer, reason_code text, detail jsonb)
      LANGUAGE sql STABLE AS $fn$
        SELECT r.monitor_id, r.checked_at, r.location_id, r.status, r.response_ms, r.reason_code, r.detail
        FROM check_results r
        WHERE r.monitor_id = p_monitor AND r.checked_at >= p_from AND r.checked_at < p_to
        UNION ALL
        SELECT u.*
        FROM check_result_hours h CROSS JOIN LATERAL check_result_hour_rows(h) u
        WHERE h.monitor_id = p_monitor AND h.hour > p_from - interval '1 day' AND h.hour < p_to
          AND u.checked_at >= p_from AND u.checked_at < p_to
      $fn$;

      -- Packs the raw results of one day (its partition) into one compact row per monitor and
      -- location, merged with a row already packed for the same day (late results), then drops the
      -- partition: one transaction. Answers the results packed. Evidence seen more than once (an up
      -- sample's target and headers, day after day) is kept once in check_result_evidence and
      -- referenced; evidence seen once (a failure's, with its request id) stays in its detail, where
      -- it is compressed with the row's other details instead of paying a row and three index entries.
      -- Its detail keeps the {"evidence": ...} form, which the readers return as it is.
      CREATE OR REPLACE FUNCTION check_results_compact_day(day date) RETURNS bigint LANGUAGE plpgsql AS $fn$
      DECLARE
        part text := format('check_results_p%s', to_char(day, 'YYYYMMDD'));
        packed bigint;
      BEGIN
        IF to_regclass(part) IS NULL THEN RETURN 0; END IF;
        EXECUTE format('LOCK TABLE %I IN SHARE ROW EXCLUSIVE MODE', part);
        EXECUTE format('INSERT INTO check_reason_codes (code) SELECT DISTINCT reason_code FROM %I
                        WHERE reason_code IS NOT NULL ON CONFLICT (code) DO NOTHING', part);
        EXECUTE format($q$
          INSERT INTO check_result_evidence (digest, evidence, last_hour)
          SELECT g.digest, g.evidence, g.last_hour FROM (
            SELECT substring(sha256(convert_to((detail -> 'evidence')::text, 'UTF8')) FOR 16) AS digest, detail -> 'evidence' AS evidence,
                   max(date_bin('1 hour', checked_at, timestamptz 'epoch')) AS last_hour, count(*) AS seen
            FROM %I WHERE detail ? 'evidence' AND NOT detail ? '$e'
            GROUP BY 1, 2
          ) g
          WHERE g.seen > 1 OR EXISTS (SELECT 1 FROM check_result_evidence e WHERE e.digest = g.digest)
          ON CONFLICT (digest) DO UPDATE SET last_hour = GREATEST(check_result_evidence.last_hour, EXCLUDED.last_hour)$q$, part);
        EXECUTE format($q$
          WITH src AS (
            SELECT monitor_id, checked_at, location_id, status, response_ms, reason_code, detail,
                   date_bin('1 day', checked_at, timestamptz 'epoch') AS hour
            FROM %I
          ), earlier AS (
            SELECT u.*, h.hour FROM check_result_hours h CROSS JOIN LATERAL check_result_hour_rows(h) u
            WHERE (h.monitor_id, h.hour, h.location_id) IN (SELECT DISTINCT monitor_id, hour, location_id FROM src)
          ), numbered AS (
            SELECT a.*, row_number() OVER (PARTITION BY monitor_id, hour, location_id ORDER BY checked_at) AS i
            FROM (SELECT * FROM src UNION ALL SELECT * FROM earlier) a
          ), packed AS (
            INSERT INTO check_result_hours AS t (monitor_id, hour, location_id, offsets_ms, statuses, response_ms, reasons, details)
            SELECT n.monitor_id, n.hour, n.location_id,
              array_agg(round(EXTRACT(EPOCH FROM n.checked_at - n.hour) * 1000)::integer ORDER BY n.i),
              CASE WHEN bool_and(n.status = 1) THEN NULL ELSE array_agg(n.status ORDER BY n.i) END,
              CASE WHEN bool_and(n.response_ms IS NULL) THEN NULL ELSE array_agg(n.response_ms ORDER BY n.i) END,
              CASE WHEN bool_and(n.reason_code IS NULL) THEN NULL ELSE array_agg(COALESCE(c.id, 0)::smallint ORDER BY n.i) END,
              jsonb_object_agg(n.i, CASE WHEN ev.id IS NOT NULL AND NOT n.detail ? '$e'
                                         THEN (n.detail - 'evidence') || jsonb_build_object('$e', ev.id) ELSE n.detail END)
                FILTER (WHERE n.detail IS NOT NULL)
            FROM numbered n LEFT JOIN check_reason_codes c ON c.code = n.reason_code
            LEFT JOIN check_result_evidence ev
              ON n.detail ? 'evidence' AND ev.digest = substring(sha256(convert_to((n.detail -> 'evidence')::text, 'UTF8')) FOR 16)
            GROUP BY n.monitor_id, n.hour, n.location_id
            ON CONFLICT (monitor_id, hour, location_id) DO UPDATE SET offsets_ms = EXCLUDED.offsets_ms,
              statuses = EXCLUDED.statuses, response_ms = EXCLUDED.response_ms, reasons = EXCLUDED.reasons,
              details = EXCLUDED.details
            RETURNING cardinality(t.offsets_ms) AS n
          )
          SELECT COALESCE(sum(n), 0) FROM packed$q$, part) INTO packed;
        EXECUTE format('DROP TABLE %I', part);
        RETURN packed;
      END
      $fn$;
      COMMENT ON COLUMN check_result_hours.hour IS 'The UTC day (its midnight) the row packs; offsets_ms are milliseconds after it';
    `);
  }

  override async down(): Promise<void> {
    // Compact days stay readable as they are (a day is a long hour to the old functions' unpacking);
    // the histograms and digests go back to their former forms.
    this.addSql(`
      ALTER TABLE check_result_rollups ADD COLUMN json_histogram jsonb NOT NULL DEFAULT '{}'::jsonb;
      UPDATE check_result_rollups r SET json_histogram = COALESCE(
        (SELECT jsonb_object_agg(e.bucket, e.n) FROM check_histogram_entries(r.histogram) e), '{}'::jsonb);
      ALTER TABLE check_result_rollups DROP COLUMN histogram;
      ALTER TABLE check_result_rollups RENAME COLUMN json_histogram TO histogram;
      ALTER TABLE check_result_rollups ALTER COLUMN histogram DROP DEFAULT;
      DROP FUNCTION check_histogram_entries(bytea);
      UPDATE check_result_evidence SET digest = sha256(convert_to(evidence::text, 'UTF8'));
    `);
  }
}
