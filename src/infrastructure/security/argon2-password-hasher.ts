import type { PasswordHasher } from '../../application/identity/ports';
import { lazyModule } from '../protocols/shared/lazy-module';

/**
 * The hashing library (a native module: its code is mapped and paged in when loaded), loaded with
 * the first password set or signed in with: a process that serves no sign-in (a check worker, an
 * API reached with tokens) never holds it.
 */
const argon2 = lazyModule(() => import('@node-rs/argon2'));

/** argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane). */
export class Argon2PasswordHasher implements PasswordHasher {
  async hash(password: string): Promise<string> {
    return (await argon2()).hash(password, { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    // Loaded outside the try: a library that cannot load is an error, not a wrong password.
    const { verify } = await argon2();
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  }
}
