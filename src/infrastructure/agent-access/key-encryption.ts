import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

const KEY_FILE = 'agent-signing-kek';

/** Decodes a configured 256-bit key given as base64, base64url or hex. */
export function decodeKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64url');
  if (key.length !== 32) throw new Error('AGENT_KEY_ENCRYPTION_KEY must hold 32 bytes (base64, base64url or hex)');
  return key;
}

/**
 * Encrypts the private signing keys at rest (AES-256-GCM, the key id as associated data). The key
 * encryption key comes from AGENT_KEY_ENCRYPTION_KEY, else from a file in DATA_DIR created on first
 * use (mode 0600), so a database dump alone never yields a usable signing key.
 */
export class KeyEncryption {
  private key: Promise<Buffer> | undefined;

  constructor(private readonly source: { configuredKey: string | undefined; dataDir: string }) {}

  async encrypt(plaintext: string, associatedData: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', await this.load(), iv);
    cipher.setAAD(Buffer.from(associatedData));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  async decrypt(payload: string, associatedData: string): Promise<string> {
    const [version, iv, tag, ciphertext] = payload.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('unreadable encrypted key');
    const decipher = createDecipheriv('aes-256-gcm', await this.load(), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(associatedData));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  private load(): Promise<Buffer> {
    this.key ??= this.source.configuredKey ? Promise.resolve(decodeKey(this.source.configuredKey)) : this.fromFile();
    return this.key;
  }

  private async fromFile(): Promise<Buffer> {
    const file = path.join(this.source.dataDir, KEY_FILE);
    await fs.mkdir(this.source.dataDir, { recursive: true, mode: 0o700 });
    try {
      await fs.writeFile(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return decodeKey(await fs.readFile(file, 'utf8'));
  }
}
