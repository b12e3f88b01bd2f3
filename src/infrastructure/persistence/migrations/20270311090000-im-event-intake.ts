import { Migration } from '@mikro-orm/migrations';

/**
 * The event intake log: POST /api/im/events appends each accepted event here (group-committed, one
 * INSERT ... ON CONFLICT (event_id) DO NOTHING per batch) and answers 202 once that commit is
 * durable; the decider (DecideImEvents) reads the log in `id` order, applies the events to their
 * incidents and deletes them in the same transaction, so an event is decided exactly once, also
 * after a kill between the answer and the decision. `event_id` is the key the intake makes for each
 * event (a batch sent again after an unclear commit appends nothing twice). No trigger, no index but
 * the two keys and the organization's reference: the log is short-lived and append-mostly.
 */
export class Migration20270311090000ImEventIntake extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE im_event_intake (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        event_id uuid NOT NULL UNIQUE,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        event jsonb NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql('DROP TABLE IF EXISTS im_event_intake;');
  }
}
