import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import { Subscriber, type SubscriberChannel } from '../../domain/status-pages/subscriber';
import type { SubscriberRepository } from '../../application/status-pages/ports';
import type { SqlRunner } from '../persistence/database';
import { raw, sql } from '../persistence/sql';
import { versionSaved } from '../persistence/optimistic';

interface Row {
  id: number;
  page_id: number;
  organization_id: number;
  channel: SubscriberChannel;
  address: string;
  webhook_secret: string | null;
  component_keys: string[] | string;
  confirmed: boolean;
  token: string;
  created_at: Date | string;
  confirmed_at: Date | string | null;
  version: number;
}
const COLUMNS =
  'id, page_id, organization_id, channel, address, webhook_secret, component_keys, confirmed, token, created_at, confirmed_at, version';

const toSubscriber = (r: Row) => Object.assign(subscriberOf(r), { version: Number(r.version) });

const subscriberOf = (r: Row) =>
  new Subscriber({
    id: Number(r.id),
    pageId: Number(r.page_id),
    organizationId: Number(r.organization_id),
    channel: r.channel,
    address: r.address,
    webhookSecret: r.webhook_secret,
    componentKeys: typeof r.component_keys === 'string' ? JSON.parse(r.component_keys) : r.component_keys,
    confirmed: r.confirmed,
    token: r.token,
    createdAt: new Date(r.created_at),
    confirmedAt: r.confirmed_at === null ? null : new Date(r.confirmed_at),
  });

/** Subscribers in plain SQL on the current unit of work. */
export class SqlSubscriberRepository implements SubscriberRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(s: Subscriber, tx: Transaction): Promise<{ subscriber: Subscriber; created: boolean }> {
    const [row] = await sqlOf(tx).query<Row>(
      sql`INSERT INTO status_page_subscribers (page_id, organization_id, channel, address, webhook_secret, component_keys, confirmed, token, created_at, confirmed_at)
       VALUES (${s.pageId}, ${s.organizationId}, ${s.channel}, ${s.address}, ${s.webhookSecret}, ${JSON.stringify(s.componentKeys)}::jsonb, ${s.confirmed}, ${s.token}, ${s.createdAt}, ${s.confirmedAt}) ON CONFLICT (page_id, channel, address) DO NOTHING RETURNING ${raw(COLUMNS)}`,
    );
    if (row) return { subscriber: toSubscriber(row), created: true };
    const [existing] = await sqlOf(tx).query<Row>(
      sql`SELECT ${raw(COLUMNS)} FROM status_page_subscribers WHERE page_id = ${s.pageId} AND channel = ${s.channel} AND address = ${s.address}`,
    );
    return { subscriber: toSubscriber(existing!), created: false };
  }

  async findById(pageId: number, id: number): Promise<Subscriber | null> {
    const [row] = await this.sql.query<Row>(
      sql`SELECT ${raw(COLUMNS)} FROM status_page_subscribers WHERE page_id = ${pageId} AND id = ${id}`,
    );
    return row ? toSubscriber(row) : null;
  }

  async findByToken(pageId: number, token: string): Promise<Subscriber | null> {
    const [row] = await this.sql.query<Row>(
      sql`SELECT ${raw(COLUMNS)} FROM status_page_subscribers WHERE page_id = ${pageId} AND token = ${token}`,
    );
    return row ? toSubscriber(row) : null;
  }

  listIn(pageId: number, tx: Transaction): Promise<Subscriber[]> {
    return this.list(pageId, sqlOf(tx));
  }

  async list(pageId: number, on: SqlRunner = this.sql): Promise<Subscriber[]> {
    return (await on.query<Row>(sql`SELECT ${raw(COLUMNS)} FROM status_page_subscribers WHERE page_id = ${pageId} ORDER BY id`)).map(
      toSubscriber,
    );
  }

  /** Optimistic: a subscription changed since it was read (confirmed, its components chosen) answers `conflict`. */
  async save(s: Subscriber, tx: Transaction): Promise<void> {
    const rows = await sqlOf(tx).query(
      sql`UPDATE status_page_subscribers SET confirmed = ${s.confirmed}, confirmed_at = ${s.confirmedAt}, component_keys = ${JSON.stringify(s.componentKeys)}::jsonb, version = version + 1
          WHERE id = ${s.id} AND version = ${s.version} RETURNING version`,
    );
    versionSaved(s, rows);
  }

  async remove(s: Subscriber, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(sql`DELETE FROM status_page_subscribers WHERE id = ${s.id}`);
  }
}
