import { createLocalJWKSet, errors, type CryptoKey, type FlattenedJWSInput, type JSONWebKeySet, type JWSHeaderParameters } from 'jose';
import type { TargetPolicy } from '../../application/shared/target-policy';

/** How long a provider's published keys are used before they are read again. */
export const JWKS_TTL_MS = 5 * 60_000;

/**
 * The least time between two reads of a provider's keys prompted by a token naming a key they do not
 * hold. Such a token is a key rotation at the provider, or a forgery: a rotation is followed at once,
 * a flood of forged kids reads the provider's keys at most this often.
 */
export const JWKS_UNKNOWN_KEY_INTERVAL_MS = 30_000;

type KeyLookup = ReturnType<typeof createLocalJWKSet>;

/** The key that verifies a token, by its header, as jose's verify functions ask for it. */
export type KeyResolver = (header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<CryptoKey>;

/** A provider's keys as read once, and until when they are used without reading them again. */
interface KeySet {
  lookup: KeyLookup;
  until: number;
}

/** What is known of one key set URI under one target policy. */
interface Slot {
  /** The last set read successfully (perhaps stale); never cleared, only replaced by a newer one. */
  set: KeySet | null;
  /** The read under way, which every verification needing the keys meanwhile waits for. */
  reading: Promise<KeySet> | null;
  /** When a token's unknown key last prompted a read (the rate limit counts these reads alone). */
  unknownKeyReadAt: number;
}

/**
 * Providers' published signing keys (JWKS), read through a target policy by the caller's `read` and
 * kept a few minutes, per policy and key set URI (like `DiscoveryCache`: keys read under one policy
 * are never used under another). Only sets read successfully are kept. Shared by the relying parties
 * the container makes.
 *
 * A token whose key the cached set does not hold has the set read again before it is refused, so a
 * key rotation at the provider signs in at the next attempt. Those reads are rate-limited on their
 * own, not counted from the last read of any kind: a rotation just after a routine read (the first
 * sign-in of the morning, then the provider rotates) must still be followed at once.
 */
export class JwksCache {
  private readonly byPolicy = new WeakMap<TargetPolicy, Map<string, Slot>>();

  constructor(
    private readonly ttlMs = JWKS_TTL_MS,
    private readonly unknownKeyIntervalMs = JWKS_UNKNOWN_KEY_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A key resolver for jose's verify functions over the keys at `jwksUri`, read with `read` when
   * none are cached or they are stale. It throws jose's `JWKSNoMatchingKey` for a key the provider
   * does not publish, and whatever `read` throws when the keys cannot be read.
   */
  keys(policy: TargetPolicy, jwksUri: string, read: () => Promise<JSONWebKeySet>): KeyResolver {
    return async (header, token) => {
      const slot = this.slot(policy, jwksUri);
      const seen = await this.current(slot, read);
      try {
        return await seen.lookup(header, token);
      } catch (error) {
        if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
        const newer = await this.newerThan(seen, slot, read);
        if (!newer) throw error;
        return newer.lookup(header, token);
      }
    };
  }

  /** The cached set while fresh, else the one being read, else one read now. */
  private current(slot: Slot, read: () => Promise<JSONWebKeySet>): Promise<KeySet> {
    if (slot.set && slot.set.until > this.now()) return Promise.resolve(slot.set);
    return this.load(slot, read);
  }

  /**
   * A set newer than `seen`, for a key `seen` does not hold: one being read or read meanwhile (by a
   * concurrent verification), else one read now unless an unknown key prompted a read less than the
   * interval ago. Null when there is none: the key stays unknown.
   */
  private async newerThan(seen: KeySet, slot: Slot, read: () => Promise<JSONWebKeySet>): Promise<KeySet | null> {
    if (slot.reading) return slot.reading;
    if (slot.set !== seen) return slot.set;
    if (this.now() - slot.unknownKeyReadAt < this.unknownKeyIntervalMs) return null;
    slot.unknownKeyReadAt = this.now();
    return this.load(slot, read);
  }

  /** Reads the set (one read at a time per slot) and keeps it when it is a well-formed key set. */
  private load(slot: Slot, read: () => Promise<JSONWebKeySet>): Promise<KeySet> {
    slot.reading ??= read()
      .then((jwks) => (slot.set = { lookup: createLocalJWKSet(jwks), until: this.now() + this.ttlMs }))
      .finally(() => (slot.reading = null));
    return slot.reading;
  }

  private slot(policy: TargetPolicy, jwksUri: string): Slot {
    let slots = this.byPolicy.get(policy);
    if (!slots) this.byPolicy.set(policy, (slots = new Map()));
    let slot = slots.get(jwksUri);
    if (!slot) {
      this.prune(slots);
      slots.set(jwksUri, (slot = { set: null, reading: null, unknownKeyReadAt: -Infinity }));
    }
    return slot;
  }

  /** Forgets slots nothing depends on any more: stale, not being read, past their rate limit. */
  private prune(slots: Map<string, Slot>): void {
    const now = this.now();
    for (const [uri, slot] of slots) {
      const idle = !slot.reading && (!slot.set || slot.set.until <= now) && now - slot.unknownKeyReadAt >= this.unknownKeyIntervalMs;
      if (idle) slots.delete(uri);
    }
  }
}
