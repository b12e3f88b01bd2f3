import { AppError } from '../../domain/shared/app-error';
import type { Clock } from '../shared/clock';
import type { RateLimitRule, SharedRateCounter } from '../shared/rate-limiter';

/** Limits: 600 events per minute per organization. */
export const IM_EVENT_RATE: RateLimitRule = { name: 'im-events', limit: 600, windowSeconds: 60 };

/**
 * How the count reaches the shared counter: at most `maxUnflushed` events of an organization are
 * admitted by one process before the shared counter has them (past that, admission waits for the
 * write), and what is admitted is written at most `everyMs` later. Over-admission across N processes
 * is below N x maxUnflushed per window (docs/decisions.md, "Event rate counted in the process").
 */
export interface RateFlushBounds {
  readonly maxUnflushed: number;
  readonly everyMs: number;
}
export const IM_EVENT_RATE_FLUSH: RateFlushBounds = { maxUnflushed: 20, everyMs: 100 };

/**
 * How long a credential admitted for an organization's events answers for it before authentication
 * (the caller cache's few seconds: a revoked token, a suspended organization or IM switched off is
 * known past this at the latest, as for every cached caller), and how many such credentials are kept.
 */
export const IM_EVENT_CREDENTIALS = { ttlMs: 5_000, maxEntries: 50_000 };

/** One organization's window as this process knows it. */
interface Window {
  readonly organizationId: number;
  readonly start: number;
  /** The shared total last read (every process's written hits). */
  known: number;
  /** Admitted here, being written. */
  writing: number;
  /** Admitted here, not written yet. */
  unwritten: number;
  /** Whether `known` was read from the shared counter in this window yet. */
  read: boolean;
}

/** Admitted (null), refused (retryAfter seconds), or wait for the write of this process's share and ask again. */
export type AdmitDecision = null | number | Promise<null | number>;

/**
 * Whether an organization may send one more event, decided before its body is read and without a
 * database round trip: each organization's fixed window is counted in the process, and the hits are
 * added to the shared counter (every process's) in batches, which answers the window's total so far.
 * Only the first event of an organization in a window waits, for the shared total (read with the
 * other windows that start then, in one statement).
 * An event is admitted while the total known plus this process's hits not yet known there is under
 * the limit. With one process that is exact; with N, each can admit at most `maxUnflushed` that the
 * others do not know of yet, which bounds the excess. A refusal is decided from memory, so a flood past
 * the limit costs no round trip. Throws (execute) imEventRateLimited (429, retryAfter, no code).
 */
export class AdmitImEvent {
  private readonly windows = new Map<string, Window>();
  /** Credential digests (the hash of an integration token) admitted lately, with their organization. */
  private readonly credentials = new Map<string, { organizationId: number; until: number }>();
  private writing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly counter: SharedRateCounter,
    private readonly clock: Clock,
    private readonly rule: RateLimitRule = IM_EVENT_RATE,
    private readonly flush: RateFlushBounds = IM_EVENT_RATE_FLUSH,
  ) {}

  async execute(organizationId: number): Promise<void> {
    const refused = await this.decide(organizationId);
    if (refused !== null) throw new AppError('imEventRateLimited', { retryAfter: refused });
  }

  /**
   * Refused from memory by the hash of the caller's token alone, before it is authenticated: when
   * that credential was admitted for an organization within IM_EVENT_CREDENTIALS.ttlMs, and that
   * organization's window, as this process knows it (the same total `decide` reads), is used up.
   * Answers retryAfter, or null when the request must be admitted and decided the usual way (an
   * unknown credential, a window not read yet or not full). Counts nothing, writes nothing.
   */
  refuseByCredential(credentialDigest: string): number | null {
    const known = this.credentials.get(credentialDigest);
    if (!known) return null;
    const now = this.clock.now().getTime();
    if (known.until <= now) {
      this.credentials.delete(credentialDigest);
      return null;
    }
    const windowMs = this.rule.windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const window = this.windows.get(`${known.organizationId}:${start}`);
    if (!window?.read || window.known + window.writing + window.unwritten < this.rule.limit) return null;
    return Math.max(1, Math.ceil((start + windowMs - now) / 1000));
  }

  /** The credential (its digest) a request was admitted with, authenticated, for this organization. */
  credentialAdmitted(credentialDigest: string, organizationId: number): void {
    if (this.credentials.size >= IM_EVENT_CREDENTIALS.maxEntries) this.credentials.clear();
    this.credentials.set(credentialDigest, { organizationId, until: this.clock.now().getTime() + IM_EVENT_CREDENTIALS.ttlMs });
  }

  decide(organizationId: number): AdmitDecision {
    const now = this.clock.now().getTime();
    const windowMs = this.rule.windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const id = `${organizationId}:${start}`;
    let window = this.windows.get(id);
    if (!window) {
      window = { organizationId, start, known: 0, writing: 0, unwritten: 0, read: false };
      this.windows.set(id, window);
    }
    // The first event of a window here waits for the shared total (one statement for every window starting then).
    if (!window.read) return this.write().then(() => this.decide(organizationId));
    if (window.known + window.writing + window.unwritten >= this.rule.limit) {
      return Math.max(1, Math.ceil((start + windowMs - now) / 1000));
    }
    if (window.writing + window.unwritten >= this.flush.maxUnflushed) return this.write().then(() => this.decide(organizationId));
    window.unwritten++;
    this.timer ??= setTimeout(() => this.write().catch(() => undefined), this.flush.everyMs).unref();
    return null;
  }

  /**
   * Writes every hit admitted here and not yet written (graceful stop: the flush timer does not keep
   * the process alive, so what it has not written yet would be lost and other processes would admit
   * that many too many): waits for a write under way, then writes the rest.
   */
  async flushPending(): Promise<void> {
    if (this.writing) await this.writing.catch(() => undefined);
    await this.write();
  }

  /** Writes what is admitted and unwritten to the shared counter (one statement per window start); once at a time. */
  write(): Promise<void> {
    if (this.writing) return this.writing;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const byStart = new Map<number, Map<string, number>>();
    const taken: Window[] = [];
    for (const window of this.windows.values()) {
      if (window.unwritten === 0 && window.read) continue;
      let hits = byStart.get(window.start);
      if (!hits) byStart.set(window.start, (hits = new Map()));
      hits.set(String(window.organizationId), window.unwritten);
      window.writing = window.unwritten;
      window.unwritten = 0;
      taken.push(window);
    }
    if (taken.length === 0) return Promise.resolve();
    this.writing = this.send(byStart, taken).finally(() => {
      this.writing = null;
      if (this.timer === undefined && [...this.windows.values()].some((w) => w.unwritten > 0)) {
        this.timer = setTimeout(() => this.write().catch(() => undefined), this.flush.everyMs).unref();
      }
    });
    return this.writing;
  }

  private async send(byStart: Map<number, Map<string, number>>, taken: Window[]): Promise<void> {
    try {
      for (const [start, hits] of byStart) {
        const totals = await this.counter.add(this.rule, new Date(start), hits);
        for (const window of taken) {
          if (window.start !== start) continue;
          window.known = Math.max(window.known, totals.get(String(window.organizationId)) ?? window.known + window.writing);
          window.writing = 0;
          window.read = true;
        }
      }
    } catch (error) {
      // Not written: kept for the next write (admission counts them meanwhile).
      for (const window of taken) {
        window.unwritten += window.writing;
        window.writing = 0;
      }
      throw error;
    } finally {
      this.forgetEnded();
    }
  }

  /** Windows that have ended and have nothing left to write are dropped. */
  private forgetEnded(): void {
    const windowMs = this.rule.windowSeconds * 1000;
    const current = Math.floor(this.clock.now().getTime() / windowMs) * windowMs;
    for (const [id, window] of this.windows) {
      if (window.start < current && window.writing === 0 && window.unwritten === 0) this.windows.delete(id);
    }
  }
}
