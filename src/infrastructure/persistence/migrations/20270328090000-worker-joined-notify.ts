import { Migration } from '@mikro-orm/migrations';

/**
 * A worker registering announces itself on `check_schedule`: a worker alone in its locations counts
 * the shares only once a minute while nothing wakes it (Rebalancer), so one that joins it is told,
 * and the alone one counts at once and hands it its share. Once per statement: registering is rare
 * (a process starting, or coming back after it was fenced).
 */
export class Migration20270328090000WorkerJoinedNotify extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TRIGGER check_workers_insert_notify AFTER INSERT ON check_workers
        FOR EACH STATEMENT EXECUTE FUNCTION check_schedule_notify();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`DROP TRIGGER check_workers_insert_notify ON check_workers;`);
  }
}
