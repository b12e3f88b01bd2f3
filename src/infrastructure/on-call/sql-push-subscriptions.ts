import { createHash } from 'node:crypto';
import type { PushSubscriptionStore } from '../../application/on-call/push-ports';
import type { CredentialCipher } from '../../application/monitoring/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { PushSubscription } from '../../domain/on-call/web-push';
import type { SqlRunner } from '../persistence/database';
import { raw, sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';

interface Row {
  id: string;
  organization_id: number;
  user_id: string;
  endpoint_ciphertext: string;
  p256dh: string;
  auth_ciphertext: string;
  label: string | null;
  created_at: Date | string;
}
const COLUMNS = 'id, organization_id, user_id, endpoint_ciphertext, p256dh, auth_ciphertext, label, created_at';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The sealing contexts of a subscription's secrets: a ciphertext copied onto another row does not open. */
const endpointContext = (id: string) => `web-push-subscription:${id}:endpoint`;
const authContext = (id: string) => `web-push-subscription:${id}:auth`;
const endpointHash = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex');

/**
 * Push subscriptions in web_push_subscriptions; every statement names the organization. The
 * endpoint (a capability URL of the push service) and the auth secret are sealed with the
 * credential cipher; the endpoint's SHA-256 keeps one row per endpoint.
 */
export class SqlPushSubscriptions implements PushSubscriptionStore {
  constructor(
    private readonly sql: SqlRunner,
    private readonly cipher: CredentialCipher,
  ) {}

  private readonly subscriptionOf = (row: Row): PushSubscription => ({
    id: row.id,
    organizationId: Number(row.organization_id),
    userId: row.user_id,
    endpoint: this.cipher.decrypt(row.endpoint_ciphertext, endpointContext(row.id)),
    p256dh: row.p256dh,
    auth: this.cipher.decrypt(row.auth_ciphertext, authContext(row.id)),
    label: row.label,
    createdAt: new Date(row.created_at),
  });

  async put(s: PushSubscription, tx: Transaction): Promise<PushSubscription> {
    const hash = endpointHash(s.endpoint);
    // An endpoint subscribed again (the console subscribes at each visit) keeps its row when it is this user's;
    // one another user had (a shared browser) moves to the new user, with the keys the browser gives now.
    const rows = await sqlOf(tx).query<Row>(
      sql`INSERT INTO web_push_subscriptions (${raw('id, organization_id, user_id, endpoint_hash, endpoint_ciphertext, p256dh, auth_ciphertext, label, created_at')})
       SELECT ${s.id}, u.organization_id, u.id, ${hash}, ${this.cipher.encrypt(s.endpoint, endpointContext(s.id))}, ${s.p256dh}, ${this.cipher.encrypt(s.auth, authContext(s.id))}, ${s.label}, ${s.createdAt}
         FROM users u WHERE u.id = ${s.userId} AND u.organization_id = ${s.organizationId}
       ON CONFLICT (endpoint_hash) DO UPDATE SET label = COALESCE(EXCLUDED.label, web_push_subscriptions.label)
         WHERE web_push_subscriptions.user_id = EXCLUDED.user_id AND web_push_subscriptions.organization_id = EXCLUDED.organization_id
       RETURNING ${raw(COLUMNS)}`,
    );
    if (rows[0]) return this.subscriptionOf(rows[0]);
    // Another user's (or organization's) row for this endpoint: theirs is dropped, the browser is this user's now.
    await sqlOf(tx).query(sql`DELETE FROM web_push_subscriptions WHERE endpoint_hash = ${hash}`);
    return this.put(s, tx);
  }

  async list(organizationId: number, userId: string): Promise<PushSubscription[]> {
    if (!UUID.test(userId)) return [];
    const rows = await this.sql.query<Row>(
      sql`SELECT ${raw(COLUMNS)} FROM web_push_subscriptions WHERE organization_id = ${organizationId} AND user_id = ${userId} ORDER BY created_at, id`,
    );
    return rows.map(this.subscriptionOf);
  }

  async find(organizationId: number, id: string): Promise<PushSubscription | null> {
    if (!UUID.test(id)) return null;
    const rows = await this.sql.query<Row>(
      sql`SELECT ${raw(COLUMNS)} FROM web_push_subscriptions WHERE organization_id = ${organizationId} AND id = ${id}`,
    );
    return rows[0] ? this.subscriptionOf(rows[0]) : null;
  }

  async ofUsersSeeing(organizationId: number, customerId: number | null, userIds: readonly string[]): Promise<PushSubscription[]> {
    const ids = userIds.filter((id) => UUID.test(id));
    if (ids.length === 0) return [];
    const rows = await this.sql.query<Row>(
      sql`SELECT ${raw(COLUMNS)} FROM web_push_subscriptions
           WHERE organization_id = ${organizationId} AND user_id = ANY(${ids}::uuid[])
             AND user_id IN (SELECT id FROM users WHERE organization_id = ${organizationId} AND is_active
                               AND (customer_id IS NULL OR customer_id = CAST(${customerId} AS integer)))
           ORDER BY created_at, id`,
    );
    return rows.map(this.subscriptionOf);
  }

  async remove(organizationId: number, userId: string, id: string, tx: Transaction): Promise<boolean> {
    if (!UUID.test(id) || !UUID.test(userId)) return false;
    const rows = await sqlOf(tx).query<{ id: string }>(
      sql`WITH gone AS (
            DELETE FROM web_push_subscriptions WHERE organization_id = ${organizationId} AND user_id = ${userId} AND id = ${id} RETURNING id
          ), methods AS (
            DELETE FROM im_contact_methods WHERE organization_id = ${organizationId} AND type = 'web-push' AND address IN (SELECT id::text FROM gone)
          )
          SELECT id FROM gone`,
    );
    return rows.length > 0;
  }

  async drop(organizationId: number, id: string): Promise<void> {
    await this.sql.query(
      sql`WITH gone AS (
            DELETE FROM web_push_subscriptions WHERE organization_id = ${organizationId} AND id = ${id} RETURNING id
          )
          DELETE FROM im_contact_methods WHERE organization_id = ${organizationId} AND type = 'web-push' AND address IN (SELECT id::text FROM gone)`,
    );
  }
}
