import { createHash } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

interface KnexClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<void>;
}

/**
 * Hot read paths (paged lists) without the ORM: a named prepared statement ($1, $2... placeholders)
 * on a connection of the ORM's own pool, so PostgreSQL parses each statement text once per
 * connection and the driver binds values instead of formatting them into the text. Outside any
 * unit of work or transaction: for reads that need neither. Rows come as the driver parses them
 * (timestamps as text, see the ORM's type overrides: select epoch milliseconds instead).
 */
export class PreparedSql {
  private readonly names = new Map<string, string>();

  constructor(private readonly orm: MikroORM) {}

  async query<T = Record<string, unknown>>(text: string, values: unknown[]): Promise<T[]> {
    const client = this.orm.em.getConnection().getKnex().client as unknown as KnexClient;
    const connection = await client.acquireConnection();
    try {
      const result = await connection.query({ name: this.nameOf(text), text, values });
      return result.rows as T[];
    } finally {
      await client.releaseConnection(connection);
    }
  }

  private nameOf(text: string): string {
    let name = this.names.get(text);
    if (name === undefined) {
      name = `ps_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      if (this.names.size > 1_000) this.names.clear();
      this.names.set(text, name);
    }
    return name;
  }
}
