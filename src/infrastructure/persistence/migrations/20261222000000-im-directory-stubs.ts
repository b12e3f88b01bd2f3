import { Migration } from '@mikro-orm/migrations';

/**
 * STAND-IN, to be dropped when the teams and escalation context (branch i26-oncall) is merged: the
 * two tables incident management reads ids from, with only the two columns it reads
 * (organization_id, id). `IF NOT EXISTS` so a database where the real tables came first is left
 * alone; the real migration must run before this one or replace it.
 */
export class Migration20261222000000ImDirectoryStubs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE IF NOT EXISTS im_teams (
        id text PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE
      );
      CREATE TABLE IF NOT EXISTS escalation_policies (
        id text PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE
      );
    `);
  }
}
