import type { WatchMark } from '../../domain/tenancy/watch-events';

/** The lastNotified* column each mark sets, per watched record's table. */
const COLUMNS: Record<'domain' | 'ip', Partial<Record<WatchMark, string>>> = {
  domain: { warning: 'last_notified_warning_at', error: 'last_notified_error_at', expired: 'last_notified_expired_at' },
  ip: { listed: 'last_notified_listed_at', clean: 'last_notified_clean_at' },
};

const set = (type: 'domain' | 'ip') =>
  Object.entries(COLUMNS[type])
    .map(
      ([mark, column]) => `${column} = CASE WHEN w.mark = '${mark}' AND (x.${column} IS NULL OR x.${column} < w.occurred_at)
      THEN w.delivered_at ELSE x.${column} END`,
    )
    .join(',\n    ');

/**
 * CTEs for the delivery ledger's settle statement, after a CTE `settled` that returns the settled
 * delivery's outbox_id, event, status, delivered_at and dedup_key. A delivered watch event (its
 * outbox row names the record and mark under `watch`; a direct message's dedup key reads
 * `watch:<domain|ip>:<id>:<mark>:<event ms>:<recipient type>`, see RunWatches) sets the
 * record's lastNotified* timestamp: the first
 * delivery after the event occurred sets it, later deliveries of that event leave it. Being part
 * of the settling statement, the timestamp and the delivered status commit together; a failed
 * or pending delivery sets nothing.
 */
export const WATCH_NOTIFIED_CTES = `
  watched AS (
    SELECT o.payload->'watch'->>'type' AS type, (o.payload->'watch'->>'id')::int AS id, o.payload->'watch'->>'mark' AS mark,
           (o.payload->>'occurredAt')::timestamptz AS occurred_at, s.delivered_at
      FROM settled s JOIN notification_outbox o ON o.id = s.outbox_id
     WHERE s.status = 'delivered' AND s.event IN ('domain.expiring', 'domain.expired', 'ip.listed', 'ip.clean')
       AND o.payload->'watch' IS NOT NULL
    UNION ALL
    SELECT split_part(s.dedup_key, ':', 2), split_part(s.dedup_key, ':', 3)::int, split_part(s.dedup_key, ':', 4),
           to_timestamp(split_part(s.dedup_key, ':', 5)::bigint / 1000.0), s.delivered_at
      FROM settled s
     WHERE s.status = 'delivered' AND s.outbox_id IS NULL AND s.dedup_key LIKE 'watch:%'
  ), noted_domains AS (
    UPDATE customer_domain_expiry x SET ${set('domain')}
      FROM watched w WHERE w.type = 'domain' AND x.domain_id = w.id
  ), noted_ips AS (
    UPDATE customer_ip_dnsbl x SET ${set('ip')}
      FROM watched w WHERE w.type = 'ip' AND x.ip_id = w.id
  )`;
