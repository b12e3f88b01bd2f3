import { Migration } from '@mikro-orm/migrations';
import { AUDITED_TABLES, auditTriggerSql } from './20261228090000-audit-log.tables';

/**
 * The audit log. Entries are written by a row trigger on every audited table, in the transaction
 * that makes the change, so there is no change without its entry and no entry without its change.
 * Who made the change comes from the `monitoring.audit` setting the service puts on the connection
 * for requests of users, API tokens and agents (audit-connection.ts); changes made without it (the
 * check engine, jobs, public pages) are not users' changes and record nothing.
 *
 * One entry per resource and transaction: several writes to one row in one transaction merge (the
 * first value before, the last after; created then deleted leaves nothing), and rows of a
 * resource's parts (escalation levels, schedule layers, tags of a monitor...) are recorded as a
 * change of their parent. Secret columns and secret keys of JSON columns are written redacted.
 */
export class Migration20261228090000AuditLog extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE audit_log (
        id bigserial PRIMARY KEY,
        public_id uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
        organization_id integer, -- no foreign key: an organization's deletion is an entry too
        customer_id integer,
        occurred_at timestamptz NOT NULL DEFAULT now(),
        actor_type text NOT NULL,
        actor_user_id uuid,
        actor_label text,
        credential_type text,
        credential_id text,
        ip text,
        request_id text,
        resource_type text NOT NULL,
        resource_id text NOT NULL,
        action text NOT NULL,
        changes jsonb NOT NULL DEFAULT '{}'::jsonb,
        tx_id bigint
      );
      CREATE INDEX audit_log_org_time ON audit_log (organization_id, occurred_at DESC, id DESC);
      CREATE INDEX audit_log_org_customer_time ON audit_log (organization_id, customer_id, occurred_at DESC, id DESC);
      CREATE INDEX audit_log_time ON audit_log (occurred_at);
      CREATE UNIQUE INDEX audit_log_tx_resource ON audit_log (tx_id, resource_type, resource_id) WHERE tx_id IS NOT NULL;

      -- stored column names as the API spells fields: check_interval -> checkInterval
      CREATE FUNCTION audit_field(name text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
        SELECT lower(substr(name, 1, 1)) || substr(replace(initcap(name), '_', ''), 2)
      $$;

      -- a value as the log shows it: secret columns and secret keys of JSON columns redacted
      CREATE FUNCTION audit_redact(col text, value jsonb, secrets text[]) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
      DECLARE
        secret text;
        inner_key text;
      BEGIN
        IF value IS NULL OR value = 'null'::jsonb THEN RETURN value; END IF;
        IF col = ANY(secrets) THEN RETURN '"[redacted]"'::jsonb; END IF;
        FOREACH secret IN ARRAY secrets LOOP
          IF jsonb_typeof(value) = 'object' AND starts_with(secret, col || '.') THEN
            inner_key := substr(secret, length(col) + 2);
            IF value ? inner_key AND value->inner_key <> 'null'::jsonb THEN
              value := jsonb_set(value, ARRAY[inner_key], '"[redacted]"'::jsonb);
            END IF;
          END IF;
        END LOOP;
        RETURN value;
      END $$;

      -- {field: {before, after}} for the columns that differ (a secret that changed reads so)
      CREATE FUNCTION audit_diff(old_row jsonb, new_row jsonb, secrets text[], ignored text[]) RETURNS jsonb
      LANGUAGE sql IMMUTABLE AS $$
        SELECT coalesce(jsonb_object_agg(audit_field(k), jsonb_build_object(
          'before', audit_redact(k, old_row->k, secrets),
          'after', CASE
            WHEN audit_redact(k, old_row->k, secrets) IS NOT DISTINCT FROM audit_redact(k, new_row->k, secrets)
              THEN '"[redacted, changed]"'::jsonb
            ELSE audit_redact(k, new_row->k, secrets) END)), '{}'::jsonb)
        FROM jsonb_object_keys(coalesce(new_row, old_row)) AS k
        WHERE NOT (k = ANY(ignored)) AND coalesce(old_row->k, 'null') IS DISTINCT FROM coalesce(new_row->k, 'null')
      $$;

      -- two sets of changes of one entry: the first before, the last after; no-ops dropped
      CREATE FUNCTION audit_merge(a jsonb, b jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
        SELECT coalesce(jsonb_object_agg(k, v), '{}'::jsonb) FROM (
          SELECT k, jsonb_build_object(
            'before', CASE WHEN a ? k THEN a->k->'before' ELSE b->k->'before' END,
            'after', CASE WHEN b ? k THEN b->k->'after' ELSE a->k->'after' END) AS v
          FROM (SELECT jsonb_object_keys(a) AS k UNION SELECT jsonb_object_keys(b)) AS keys
        ) AS merged
        WHERE v->'before' IS DISTINCT FROM v->'after' OR v->>'after' = '[redacted, changed]'
      $$;

      /*
       * The row trigger. Arguments: resource type; secret columns (comma-separated, 'col.key' for a
       * key of a JSON column); ignored columns; the column naming the resource (default public_id,
       * else id); the column holding its customer (default customer_id); for a part of another
       * resource: the parent's table, the column referencing it, the parent's resource type, the
       * key its changes are listed under, and the parent's id and customer columns.
       */
      CREATE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        context jsonb := nullif(current_setting('monitoring.audit', true), '')::jsonb;
        v_type text := TG_ARGV[0];
        secrets text[] := coalesce(string_to_array(nullif(TG_ARGV[1], ''), ','), '{}');
        ignored text[] := coalesce(string_to_array(nullif(TG_ARGV[2], ''), ','), '{}') || ARRAY['updated_at', 'version'];
        id_column text := nullif(TG_ARGV[3], '');
        customer_column text := coalesce(nullif(TG_ARGV[4], ''), 'customer_id');
        parent_table text := nullif(TG_ARGV[5], '');
        old_row jsonb;
        new_row jsonb;
        subject jsonb;
        parent jsonb;
        change jsonb;
        v_action text;
        v_id text;
      BEGIN
        IF context IS NULL OR context->>'actorType' IS NULL THEN RETURN NULL; END IF;
        IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD); END IF;
        IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW); END IF;
        change := audit_diff(old_row, new_row, secrets, ignored);
        IF change = '{}'::jsonb THEN RETURN NULL; END IF;
        v_action := CASE TG_OP WHEN 'INSERT' THEN 'created' WHEN 'UPDATE' THEN 'updated' ELSE 'deleted' END;
        subject := coalesce(new_row, old_row);
        IF parent_table IS NOT NULL THEN
          -- a part of its parent: listed under the parent, as one changed key per part
          IF TG_OP = 'DELETE' THEN
            EXECUTE format('SELECT to_jsonb(p) FROM %I p WHERE p.id = ($1).%I', parent_table, TG_ARGV[6]) INTO parent USING OLD;
          ELSE
            EXECUTE format('SELECT to_jsonb(p) FROM %I p WHERE p.id = ($1).%I', parent_table, TG_ARGV[6]) INTO parent USING NEW;
          END IF;
          IF parent IS NULL THEN RETURN NULL; END IF; -- the parent's own deletion says it
          change := jsonb_build_object(TG_ARGV[8] || '.' || coalesce(subject->>coalesce(id_column, 'id'), ''), jsonb_build_object(
            'before', CASE WHEN old_row IS NULL THEN NULL ELSE (SELECT coalesce(jsonb_object_agg(audit_field(k), audit_redact(k, old_row->k, secrets)), '{}') FROM jsonb_object_keys(old_row) k WHERE NOT (k = ANY(ignored))) END,
            'after', CASE WHEN new_row IS NULL THEN NULL ELSE (SELECT coalesce(jsonb_object_agg(audit_field(k), audit_redact(k, new_row->k, secrets)), '{}') FROM jsonb_object_keys(new_row) k WHERE NOT (k = ANY(ignored))) END));
          v_type := TG_ARGV[7];
          subject := parent;
          id_column := nullif(TG_ARGV[9], '');
          customer_column := coalesce(nullif(TG_ARGV[10], ''), 'customer_id');
          v_action := 'updated';
        END IF;
        v_id := coalesce(subject->>coalesce(id_column, 'public_id'), subject->>'id', '-');
        INSERT INTO audit_log AS entry (
          organization_id, customer_id, actor_type, actor_user_id, actor_label, credential_type, credential_id,
          ip, request_id, resource_type, resource_id, action, changes, tx_id)
        VALUES (
          CASE WHEN TG_TABLE_NAME = 'organizations' AND parent_table IS NULL THEN (subject->>'id')::integer
               ELSE coalesce((subject->>'organization_id')::integer, (context->>'organizationId')::integer) END,
          (subject->>customer_column)::integer,
          context->>'actorType', (context->>'userId')::uuid, context->>'actorLabel',
          context->>'credentialType', context->>'credentialId', context->>'ip', context->>'requestId',
          v_type, v_id, v_action, change, txid_current())
        ON CONFLICT (tx_id, resource_type, resource_id) WHERE tx_id IS NOT NULL DO UPDATE SET
          changes = audit_merge(entry.changes, EXCLUDED.changes),
          action = CASE
            WHEN entry.action = 'created' AND EXCLUDED.action = 'deleted' THEN 'dropped'
            WHEN entry.action = 'created' THEN 'created'
            WHEN EXCLUDED.action = 'deleted' THEN 'deleted'
            WHEN entry.action = 'deleted' THEN 'updated'
            ELSE entry.action END;
        -- created and deleted in one transaction, or changed back: nothing happened
        DELETE FROM audit_log AS gone
         WHERE gone.tx_id = txid_current() AND gone.resource_type = v_type AND gone.resource_id = v_id
           AND (gone.action = 'dropped' OR (gone.action = 'updated' AND gone.changes = '{}'::jsonb));
        RETURN NULL;
      END $$;
    `);
    for (const table of AUDITED_TABLES) this.addSql(auditTriggerSql(table));
  }
}
