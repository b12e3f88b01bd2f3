import { Migration } from '@mikro-orm/migrations';

/**
 * A claimed row carries its lease in next_due_at: the claim moves the slot it runs to
 * leased_slot and next_due_at to the lease's end, so a dead worker's slot falls due again by
 * itself, and a claim's index scan meets only rows that are due, never the ones running (it used
 * to walk past every running row, a few thousand per claim at 40,000 monitors).
 */
export class Migration20261122071000LeaseInDueTime extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE check_schedule ADD COLUMN leased_slot timestamptz;
      UPDATE check_schedule SET leased_slot = next_due_at, next_due_at = lease_until WHERE lease_until IS NOT NULL;
      ALTER TABLE check_schedule DROP COLUMN lease_until;
    `);
  }
}
