import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CredentialCipher } from '../../application/monitoring/ports';

const VERSION = 'v1';

/**
 * AES-256-GCM with a random 96-bit nonce per value; the context (the record the secret belongs
 * to) is authenticated as additional data, so a ciphertext copied to another record does not
 * decrypt. Stored as `v1.<nonce>.<tag>.<ciphertext>` (base64url).
 */
export class AesGcmCredentialCipher implements CredentialCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('credentials key must be 32 bytes');
  }

  /** CREDENTIALS_KEY when configured, else a key generated once into `dataDir/credentials.key` (mode 0600). */
  static fromConfig(configured: Buffer | undefined, dataDir: string): AesGcmCredentialCipher {
    if (configured) return new AesGcmCredentialCipher(configured);
    const file = path.join(dataDir, 'credentials.key');
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return new AesGcmCredentialCipher(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
  }

  encrypt(plaintext: string, context: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(context));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, nonce, cipher.getAuthTag(), sealed].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  decrypt(ciphertext: string, context: string): string {
    const [version, nonce, tag, sealed] = ciphertext.split('.');
    if (version !== VERSION || !nonce || !tag || sealed === undefined) throw new Error('unrecognised credentials ciphertext');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
  }
}
