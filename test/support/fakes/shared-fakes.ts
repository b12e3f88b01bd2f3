import { AppError } from '../../../src/domain/shared/app-error';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import { Transaction, type TransactionRunner } from '../../../src/application/shared/transaction';
import type { IdGenerator } from '../../../src/application/shared/id-generator';
import type { RateLimitDecision, RateLimitRule, RateLimiter, SharedRateCounter } from '../../../src/application/shared/rate-limiter';
import type { TargetPolicy, TargetVetting } from '../../../src/application/shared/target-policy';

/** A row of `organizationId` (and of `customerId`, for customer rows) is visible in `scope`, as the adapters filter. */
export const inScope = (scope: TenantScope, organizationId: number, customerId: number | null) =>
  organizationId === scope.organizationId && (scope.customerId === null || scope.customerId === customerId);

/** A reference names a record by its numeric id or its public id, as the adapters accept. */
export const matches = (record: { id: number; publicId: string }, ref: string) => String(record.id) === ref || record.publicId === ref;

/** A detached copy of a domain object (its class kept), as a fresh load from the database is. */
export const copyOf = <T extends object>(value: T): T =>
  Object.assign(Object.create(Object.getPrototypeOf(value)), structuredClone({ ...value }));

/**
 * Optimistic concurrency as the MikroORM adapters have it (a version column, `conflict` on a stale
 * flush): the stored version of each row is kept apart from the object, so a save from a stale
 * copy throws `conflict`, and a successful save moves the version on, on the object too.
 */
export class RowVersions<K> {
  private readonly stored = new Map<K, number>();
  /** The next save loses a race with another writer (who saved the row between the caller's load and its save). */
  concurrentWriteOnNextSave = false;

  added(key: K, entity: { version: number }): void {
    this.stored.set(key, entity.version);
  }

  /** Checks the version the caller read, then stores the next one (throws `conflict` on a lost race). */
  saved(key: K, entity: { version: number }): void {
    if (this.concurrentWriteOnNextSave) {
      this.concurrentWriteOnNextSave = false;
      throw new AppError('conflict');
    }
    if (this.stored.get(key) !== entity.version) throw new AppError('conflict');
    entity.version += 1;
    this.stored.set(key, entity.version);
  }

  removed(key: K): void {
    this.stored.delete(key);
  }
}

/** A use case's transaction in the unit tests: a handle the fakes take and ignore. */
export class FakeTransaction extends Transaction {}

export const immediateTransactions: TransactionRunner = { run: (work) => work(new FakeTransaction()) };

/** immediateTransactions that keeps each handle it hands out: for tests that a use case passes its `tx` on to its writes. */
export function recordedTransactions(): TransactionRunner & { readonly handed: FakeTransaction[] } {
  const handed: FakeTransaction[] = [];
  return {
    handed,
    run: (work) => {
      const tx = new FakeTransaction();
      handed.push(tx);
      return work(tx);
    },
  };
}

/** UUIDs numbered from 1 in the order they are asked for. */
export const sequentialIds = (): IdGenerator => {
  let n = 0;
  return { uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` };
};

/** Counts hits per rule and key in one fixed window, like the PostgreSQL limiter. */
export class FakeRateLimiter implements RateLimiter {
  readonly counts = new Map<string, number>();
  constructor(private readonly retryAfterSeconds = 42) {}
  async hit(rule: RateLimitRule, key: string): Promise<RateLimitDecision> {
    const count = (this.counts.get(`${rule.name}:${key}`) ?? 0) + 1;
    this.counts.set(`${rule.name}:${key}`, count);
    return { allowed: count <= rule.limit, remaining: Math.max(0, rule.limit - count), retryAfterSeconds: this.retryAfterSeconds };
  }
}

/**
 * The shared counter of limits counted in the process, in memory: `counts` by `rule:key:windowStart`
 * (one instance stands for the database every process shares); `adds` counts the writes.
 */
export class FakeSharedRateCounter implements SharedRateCounter {
  readonly counts = new Map<string, number>();
  adds = 0;
  failNext = false;
  async add(rule: RateLimitRule, windowStart: Date, hits: ReadonlyMap<string, number>): Promise<Map<string, number>> {
    this.adds++;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('shared counter unreachable');
    }
    const totals = new Map<string, number>();
    for (const [key, n] of hits) {
      const id = `${rule.name}:${key}:${windowStart.getTime()}`;
      const total = (this.counts.get(id) ?? 0) + n;
      this.counts.set(id, total);
      totals.set(key, total);
    }
    return totals;
  }
  /** The total of a key over all windows. */
  total(rule: string, key: string): number {
    let sum = 0;
    for (const [id, n] of this.counts) if (id.startsWith(`${rule}:${key}:`)) sum += n;
    return sum;
  }
}

/**
 * Names under example.com/example.net and 93.x / 2606: addresses are public; everything else
 * answers as configured in `verdicts` (default: nonPublicAddress). Addresses are allowed as
 * `allowedAddress` says (default: none).
 */
export class FakeTargetPolicy implements TargetPolicy {
  readonly vetted: string[] = [];
  readonly verdicts = new Map<string, TargetVetting>();
  constructor(private readonly allowedAddress: (address: string) => boolean = () => false) {}
  async vet(host: string): Promise<TargetVetting> {
    this.vetted.push(host);
    return (
      this.verdicts.get(host) ??
      (/^(93\.|2606:)|example\.(com|net)$/.test(host)
        ? { ok: true, hostname: host, addresses: ['93.184.216.34'] }
        : { ok: false, reason: 'nonPublicAddress' })
    );
  }
  isAllowedAddress(address: string): boolean {
    return this.allowedAddress(address);
  }
}
