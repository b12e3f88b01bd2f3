import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { SqlRunner } from '../persistence/database';
import type { TransactionRunner } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import { raw, sql } from '../persistence/sql';
import { IDENTITY_ASSERTION_TTL_SECONDS } from '../../domain/agent-access/agent-access-limits';
import type { SigningKeys } from '../../application/agent-access/ports';
import type { KeyEncryption } from './key-encryption';

export const SIGNING_ALG = 'EdDSA';
/** Retired public keys stay published and trusted this long: every assertion they signed has expired by then. */
const RETENTION_MS = (IDENTITY_ASSERTION_TTL_SECONDS + 3600) * 1000;
const CACHE_MS = 60_000;

interface KeyRow {
  kid: string;
  public_jwk: JWK;
  private_key_ciphertext: string;
}

/**
 * The EdDSA (Ed25519) signing keys in PostgreSQL, private halves encrypted, so every instance and
 * every restart signs and verifies with the same keys. One key is active; rotation retires it. Its
 * statements run apart from any use case's unit of work (the pool; a rotation in a transaction of
 * its own, the runner's).
 */
export class PostgresSigningKeys implements SigningKeys {
  private active: { kid: string; key: CryptoKey; until: number } | undefined;
  private readonly publicKeys = new Map<string, { key: CryptoKey | null; until: number }>();

  constructor(
    private readonly sql: SqlRunner,
    private readonly transactions: TransactionRunner,
    private readonly encryption: KeyEncryption,
  ) {}

  /** The active key, created on first use. */
  async signingKey(now: Date): Promise<{ kid: string; key: CryptoKey }> {
    if (this.active && this.active.until > now.getTime()) return this.active;
    let row = await this.activeRow();
    if (!row) {
      await this.insertKey(now, 'ON CONFLICT DO NOTHING');
      row = await this.activeRow();
    }
    const jwk = JSON.parse(await this.encryption.decrypt(row!.private_key_ciphertext, row!.kid)) as JWK;
    this.active = { kid: row!.kid, key: (await importJWK(jwk, SIGNING_ALG)) as CryptoKey, until: now.getTime() + CACHE_MS };
    return this.active;
  }

  /** The public key for a kid that is active or retired recently enough; null otherwise. */
  async verificationKey(kid: string | undefined, now: Date): Promise<CryptoKey | null> {
    if (!kid) return null;
    const cached = this.publicKeys.get(kid);
    if (cached && cached.until > now.getTime()) return cached.key;
    const [row] = await this.sql.query<KeyRow>(
      sql`SELECT kid, public_jwk FROM agent_signing_keys WHERE kid = ${kid} AND (status = 'active' OR retired_at > ${new Date(now.getTime() - RETENTION_MS)})`,
    );
    const key = row ? ((await importJWK(row.public_jwk, SIGNING_ALG)) as CryptoKey) : null;
    this.publicKeys.set(kid, { key, until: now.getTime() + CACHE_MS });
    return key;
  }

  async publicJwks(now: Date): Promise<{ keys: Array<Record<string, unknown>> }> {
    await this.signingKey(now);
    const rows = await this.sql.query<KeyRow>(
      sql`SELECT kid, public_jwk FROM agent_signing_keys WHERE status = 'active' OR retired_at > ${new Date(now.getTime() - RETENTION_MS)} ORDER BY created_at DESC`,
    );
    return { keys: rows.map((row) => ({ ...row.public_jwk, kid: row.kid, alg: SIGNING_ALG, use: 'sig' })) };
  }

  async rotate(now: Date): Promise<{ kid: string; previousKid: string | null }> {
    const result = await this.transactions.run(async (transaction) => {
      const tx = sqlOf(transaction);
      const [previous] = await tx.query<KeyRow>(sql`SELECT kid FROM agent_signing_keys WHERE status = 'active' FOR UPDATE`);
      await tx.query(sql`UPDATE agent_signing_keys SET status = 'retired', retired_at = ${now} WHERE status = 'active'`);
      const kid = await this.insertKey(now, '', tx);
      return { kid, previousKid: previous?.kid ?? null };
    });
    this.active = undefined;
    this.publicKeys.clear();
    return result;
  }

  private async activeRow(): Promise<KeyRow | undefined> {
    const [row] = await this.sql.query<KeyRow>(
      sql`SELECT kid, public_jwk, private_key_ciphertext FROM agent_signing_keys WHERE status = 'active'`,
    );
    return row;
  }

  private async insertKey(now: Date, onConflict: '' | 'ON CONFLICT DO NOTHING', runner: SqlRunner = this.sql): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { crv: 'Ed25519', extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    const ciphertext = await this.encryption.encrypt(JSON.stringify(await exportJWK(privateKey)), kid);
    await runner.query(sql`INSERT INTO agent_signing_keys (kid, algorithm, public_jwk, private_key_ciphertext, status, created_at)
      VALUES (${kid}, ${SIGNING_ALG}, ${JSON.stringify(publicJwk)}, ${ciphertext}, 'active', ${now}) ${raw(onConflict)}`);
    return kid;
  }
}
