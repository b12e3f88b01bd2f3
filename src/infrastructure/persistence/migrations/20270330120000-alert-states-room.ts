import { Migration } from '@mikro-orm/migrations';

/**
 * Room on monitor_alert_states' pages for a row's next version (fillfactor 70). Every result that is
 * not steady updates its monitor's row, and none of the columns it writes is indexed, so PostgreSQL
 * can keep the new version on the same page without touching an index (a HOT update), but only when
 * the page has room: full pages made every update of a storm insert into the primary key again.
 * Pages written before keep their fill until rewritten (VACUUM FULL); rows inserted from now get it.
 */
export class Migration20270330120000AlertStatesRoom extends Migration {
  override async up(): Promise<void> {
    this.addSql(`ALTER TABLE monitor_alert_states SET (fillfactor = 70);`);
  }

  override async down(): Promise<void> {
    this.addSql(`ALTER TABLE monitor_alert_states RESET (fillfactor);`);
  }
}
