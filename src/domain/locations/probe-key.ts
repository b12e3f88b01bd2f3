/** Every probe key starts so: recognisable in a configuration file and by secret scanners. */
export const PROBE_KEY_PREFIX = 'pk_';
/** How much of the secret is kept in clear for display: the prefix and 6 characters. */
export const PROBE_KEY_SHOWN_LENGTH = PROBE_KEY_PREFIX.length + 6;

/** The part of a secret kept for display (`pk_Ab3dE9`): enough to tell keys apart, far too little to guess the rest. */
export const probeKeyPrefixOf = (secret: string): string => secret.slice(0, PROBE_KEY_SHOWN_LENGTH);

export interface ProbeKeyProps {
  id: number | null;
  publicId: string;
  locationId: number;
  name: string;
  /** SHA-256 of the secret, base64url (SecretTokens.hash); the secret itself is never stored. */
  secretDigest: string;
  secretPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/**
 * A key probes of one location present. The secret is shown once, when the key is issued; the
 * service keeps its digest and a short prefix. A location may hold several live keys, so a key is
 * replaced by issuing the new one, moving the probes to it, then revoking the old one. Revoking is
 * final: a revoked key never authenticates again.
 */
export class ProbeKey {
  id: number | null;
  readonly publicId: string;
  readonly locationId: number;
  readonly name: string;
  readonly secretDigest: string;
  readonly secretPrefix: string;
  readonly createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;

  constructor(props: ProbeKeyProps) {
    this.id = props.id;
    this.publicId = props.publicId;
    this.locationId = props.locationId;
    this.name = props.name;
    this.secretDigest = props.secretDigest;
    this.secretPrefix = props.secretPrefix;
    this.createdAt = props.createdAt;
    this.lastUsedAt = props.lastUsedAt;
    this.revokedAt = props.revokedAt;
  }

  /** A new live key for a secret just generated (`pk_` + 32 random bytes, base64url) and its digest. */
  static issue(props: { publicId: string; locationId: number; name: string; secret: string; secretDigest: string; now: Date }): ProbeKey {
    return new ProbeKey({
      id: null,
      publicId: props.publicId,
      locationId: props.locationId,
      name: props.name.trim() || 'probe key',
      secretDigest: props.secretDigest,
      secretPrefix: probeKeyPrefixOf(props.secret),
      createdAt: props.now,
      lastUsedAt: null,
      revokedAt: null,
    });
  }

  get isRevoked(): boolean {
    return this.revokedAt !== null;
  }

  /** Revokes the key; a revoked key stays revoked as of its first revocation. */
  revoke(now: Date): void {
    this.revokedAt ??= now;
  }
}
