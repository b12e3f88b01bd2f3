import { Migration } from '@mikro-orm/migrations';

/**
 * Website records now carry `steps` and `secretNames` (API check chains): every stored document is
 * stale, and the host renders them again at start (website-document.ts). Chains need no column of
 * their own: steps live in `config`, secrets in `credentials_ciphertext`, and `monitoring_type`
 * takes `api_chain` like any website type (the schedule already plans every type but heartbeats).
 */
export class Migration20270125090000ApiChainDocuments extends Migration {
  override async up(): Promise<void> {
    this.addSql(`UPDATE monitors SET document = NULL WHERE document IS NOT NULL;`);
  }
}
