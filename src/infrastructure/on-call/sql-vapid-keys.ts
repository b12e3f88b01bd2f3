import { lazyModule } from '../protocols/shared/lazy-module';
import type { VapidKeys } from '../../application/on-call/push-ports';
import type { CredentialCipher } from '../../application/monitoring/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** web-push, loaded with the first keys or push (a service that pushes nothing never holds it). */
export const loadWebPush = lazyModule(() => import('web-push'));

const CONTEXT = 'web-push-vapid:private-key';

/**
 * The deployment's VAPID key pair (P-256, base64url as the Push API takes it), in
 * web_push_vapid_keys: made by the first process that needs it (INSERT ... ON CONFLICT DO NOTHING,
 * so two processes starting at once agree on one pair), the private key sealed with the credential
 * cipher, read once per process.
 */
export class SqlVapidKeys implements VapidKeys {
  private cached: Promise<{ publicKey: string; privateKey: string }> | undefined;

  constructor(
    private readonly sql: SqlRunner,
    private readonly cipher: CredentialCipher,
    private readonly now: () => Date,
  ) {}

  keys(): Promise<{ publicKey: string; privateKey: string }> {
    this.cached ??= this.load().catch((error: unknown) => {
      this.cached = undefined;
      throw error;
    });
    return this.cached;
  }

  private async load(): Promise<{ publicKey: string; privateKey: string }> {
    const { default: webpush } = await loadWebPush();
    const made = webpush.generateVAPIDKeys();
    await this.sql.query(
      sql`INSERT INTO web_push_vapid_keys (id, public_key, private_key_ciphertext, created_at)
          VALUES (1, ${made.publicKey}, ${this.cipher.encrypt(made.privateKey, CONTEXT)}, ${this.now()}) ON CONFLICT (id) DO NOTHING`,
    );
    const [row] = await this.sql.query<{ public_key: string; private_key_ciphertext: string }>(
      sql`SELECT public_key, private_key_ciphertext FROM web_push_vapid_keys WHERE id = 1`,
    );
    if (!row) throw new Error('The VAPID key pair could not be stored');
    return { publicKey: row.public_key, privateKey: this.cipher.decrypt(row.private_key_ciphertext, CONTEXT) };
  }
}
