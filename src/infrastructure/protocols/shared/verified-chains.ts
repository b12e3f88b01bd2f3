import type { TLSSocket } from 'node:tls';
import type { CertificateFacts, ChainDescription } from './certificate';

export interface VerifiedChainsOptions {
  /** Chains (and targets) remembered at most; the oldest go first. */
  capacity?: number;
  /** How long a verdict stands at most, ms (a trust-store or clock change shows within this). */
  ttlMs?: number;
  clock?: () => number;
}

/** About 1.4 KB each (issuers are shared between the chains they sign). */
const DEFAULT_CAPACITY = 20_000;
const DEFAULT_TTL_MS = 60 * 60 * 1000;
const MAX_DEPTH = 10;

/**
 * Verdicts of verifying handshakes, by the exact certificates the peer sent and the name asked
 * for, so that the next handshake presenting the same chain need not verify and decode it again:
 * decoding a peer chain for the host-name check costs Node about a quarter of a new HTTPS
 * connection's CPU (bench:checks), and a monitor's server presents the same chain check after check.
 *
 * Verifying the same certificates against the same roots under the same name gives the same
 * outcome, except as time passes: a verdict stands until the first validity boundary of its chain
 * still ahead (a certificate expiring or becoming valid), and at most `ttlMs`.
 */
export class VerifiedChains {
  readonly stats = { hits: 0, misses: 0 };
  private readonly verdicts = new Map<string, { readonly description: ChainDescription; readonly until: number }>();
  /** The chain each target (address, port and name) presented last. */
  private readonly lastChains = new Map<string, string>();
  /** Issuers by fingerprint: a few intermediates and roots sign most chains. */
  private readonly issuers = new Map<string, CertificateFacts>();
  private readonly capacity: number;
  private readonly ttlMs: number;
  private readonly clock: () => number;

  constructor(options: VerifiedChainsOptions = {}) {
    this.capacity = options.capacity ?? DEFAULT_CAPACITY;
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.clock = options.clock ?? Date.now;
  }

  /** Whether the chain `target` presented last still has a verdict: if so, a handshake may skip verifying. */
  expects(target: string): boolean {
    const key = this.lastChains.get(target);
    return key !== undefined && this.fresh(key) !== null;
  }

  /** The verdict for the chain the peer of `socket` presented under `servername`, while it stands. */
  lookup(socket: TLSSocket, servername: string): ChainDescription | null {
    const key = chainKey(socket, servername);
    const found = key === null ? null : this.fresh(key);
    if (found) this.stats.hits++;
    else this.stats.misses++;
    return found;
  }

  /** Keeps what a verifying handshake with `target` found. */
  remember(target: string, socket: TLSSocket, servername: string, description: ChainDescription): void {
    const key = chainKey(socket, servername);
    if (key === null) return;
    const now = this.clock();
    let until = now + this.ttlMs;
    for (const { validFrom, validTo } of [description.leaf, ...description.chain]) {
      for (const boundary of [Date.parse(validFrom), Date.parse(validTo)]) {
        if (boundary > now && boundary < until) until = boundary;
      }
    }
    const chain = description.chain.map((issuer) => {
      const known = this.issuers.get(issuer.fingerprint); // the same SHA-256, the same certificate
      if (known) return known;
      bounded(this.issuers, issuer.fingerprint, issuer, this.capacity);
      return issuer;
    });
    bounded(this.verdicts, key, { description: { ...description, chain }, until }, this.capacity);
    bounded(this.lastChains, target, key, this.capacity);
  }

  private fresh(key: string): ChainDescription | null {
    const verdict = this.verdicts.get(key);
    return verdict && verdict.until > this.clock() ? verdict.description : null;
  }
}

/** Sets `key` as the newest entry, dropping the oldest beyond `capacity`. */
function bounded<V>(map: Map<string, V>, key: string, value: V, capacity: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > capacity) map.delete(map.keys().next().value!);
}

/**
 * The name asked for and the SHA-256 fingerprints of the certificates the peer sent, leaf first.
 * Read through the X.509 objects, which Node does not decode into JavaScript until asked.
 */
function chainKey(socket: TLSSocket, servername: string): string | null {
  let cert = socket.getPeerX509Certificate();
  if (!cert) return null;
  let key = servername;
  for (let depth = 0; cert && depth < MAX_DEPTH; depth++) {
    key += `/${cert.fingerprint256}`;
    cert = cert.issuerCertificate;
  }
  return key;
}
