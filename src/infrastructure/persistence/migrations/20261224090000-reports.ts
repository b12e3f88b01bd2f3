import { Migration } from '@mikro-orm/migrations';

/**
 * Organization reports. A definition's scope is kept as JSON lists of internal ids without foreign
 * keys: a customer, monitor or tag deleted since simply drops out of the next run. report_runs holds
 * every run; the partial unique indexes on (report, slot) and (customer, slot) of scheduled runs are
 * what make a slot run once across workers and restarts. report_logos brands the organization's PDFs.
 */
export class Migration20261224090000Reports extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE report_definitions (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        frequency text NOT NULL CHECK (frequency IN ('weekly', 'monthly')),
        weekday smallint CHECK (weekday BETWEEN 1 AND 7),
        day_of_month smallint CHECK (day_of_month BETWEEN 1 AND 28),
        time_of_day text NOT NULL,
        timezone text NOT NULL,
        scope jsonb NOT NULL,
        recipients jsonb NOT NULL,
        mode text NOT NULL CHECK (mode IN ('always', 'threshold')),
        threshold double precision,
        sla_target double precision NOT NULL,
        enabled boolean NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1,
        CHECK ((frequency = 'weekly' AND weekday IS NOT NULL AND day_of_month IS NULL)
            OR (frequency = 'monthly' AND day_of_month IS NOT NULL AND weekday IS NULL)),
        CHECK (mode = 'always' OR threshold IS NOT NULL)
      );
      CREATE INDEX report_definitions_organization_idx ON report_definitions (organization_id, id);
      CREATE INDEX report_definitions_enabled_idx ON report_definitions (id) WHERE enabled;

      CREATE TABLE report_runs (
        id serial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        report_id integer REFERENCES report_definitions(id) ON DELETE SET NULL,
        report_public_id uuid,
        customer_id integer REFERENCES customers(id) ON DELETE CASCADE,
        trigger text NOT NULL CHECK (trigger IN ('schedule', 'manual')),
        slot timestamptz,
        period_from timestamptz NOT NULL,
        period_to timestamptz NOT NULL,
        status text NOT NULL CHECK (status IN ('running', 'completed', 'skipped', 'failed')),
        pdf_path text,
        summary jsonb,
        recipients jsonb NOT NULL DEFAULT '[]',
        error text,
        started_at timestamptz NOT NULL,
        finished_at timestamptz,
        CHECK (trigger = 'manual' OR slot IS NOT NULL)
      );
      CREATE UNIQUE INDEX report_runs_report_slot_uq ON report_runs (report_id, slot) WHERE trigger = 'schedule' AND report_id IS NOT NULL;
      CREATE UNIQUE INDEX report_runs_customer_slot_uq ON report_runs (customer_id, slot) WHERE trigger = 'schedule' AND customer_id IS NOT NULL;
      CREATE INDEX report_runs_organization_idx ON report_runs (organization_id, id DESC);
      CREATE INDEX report_runs_report_idx ON report_runs (report_id, id DESC);

      CREATE TABLE report_logos (
        organization_id integer PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
        bytes bytea NOT NULL,
        updated_at timestamptz NOT NULL
      );
    `);
  }
}
