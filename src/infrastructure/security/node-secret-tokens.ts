import { createHash, randomBytes } from 'node:crypto';
import type { SecretTokens } from '../../application/identity/ports';

/**
 * 256-bit random secrets and their SHA-256 digests. A fast digest is right here: the secret has
 * full entropy, so nothing is gained by a slow derivation, and lookups go by digest through a
 * unique index, which makes the comparison constant-time with respect to the secret.
 */
export class NodeSecretTokens implements SecretTokens {
  generate(prefix: string): string {
    return prefix + randomBytes(32).toString('base64url');
  }

  hash(token: string): string {
    return createHash('sha256').update(token).digest('base64url');
  }
}
