import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { AesGcmCredentialCipher } from '../../../src/infrastructure/security/aes-gcm-credential-cipher';

describe('AesGcmCredentialCipher', () => {
  const cipher = new AesGcmCredentialCipher(randomBytes(32));

  it('round-trips, with a fresh nonce each time and nothing of the plaintext visible', () => {
    const a = cipher.encrypt('{"username":"u","password":"hunter2"}', 'monitor:1');
    const b = cipher.encrypt('{"username":"u","password":"hunter2"}', 'monitor:1');
    expect(a).not.to.equal(b);
    expect(a).to.match(/^v1\./).and.not.include('hunter2');
    expect(cipher.decrypt(a, 'monitor:1')).to.equal('{"username":"u","password":"hunter2"}');
  });

  it('refuses a ciphertext moved to another record, tampered with, or sealed under another key', () => {
    const sealed = cipher.encrypt('secret', 'monitor:1');
    expect(() => cipher.decrypt(sealed, 'monitor:2')).to.throw();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('x' + Buffer.from(parts[3]!, 'base64url').toString('latin1')).toString('base64url');
    expect(() => cipher.decrypt(parts.join('.'), 'monitor:1')).to.throw();
    expect(() => new AesGcmCredentialCipher(randomBytes(32)).decrypt(sealed, 'monitor:1')).to.throw();
  });

  it('generates a key file under DATA_DIR once (mode 0600) and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cipher-'));
    try {
      const first = AesGcmCredentialCipher.fromConfig(undefined, dir);
      const sealed = first.encrypt('secret', 'ctx');
      const file = path.join(dir, 'credentials.key');
      expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
      expect(AesGcmCredentialCipher.fromConfig(undefined, dir).decrypt(sealed, 'ctx')).to.equal('secret');
      const configured = AesGcmCredentialCipher.fromConfig(Buffer.alloc(32, 7), dir);
      expect(() => configured.decrypt(sealed, 'ctx')).to.throw();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
