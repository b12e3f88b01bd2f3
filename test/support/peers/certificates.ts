import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Pem { key: string; cert: string }
export interface TestCertificates {
  /** The test CA the checkers are told to trust. */
  ca: Pem;
  /** localhost / 127.0.0.1, signed by the CA, valid 90 days. */
  valid: Pem;
  /** Same names, signed by the CA, expiring in 3 days. */
  expiring: Pem;
  /** Self-signed, not trusted by anyone. */
  selfSigned: Pem;
}

let cached: TestCertificates | undefined;

/** Certificates made once per run with the openssl CLI. */
export function testCertificates(): TestCertificates {
  if (cached) return cached;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-certs-'));
  const file = (name: string) => path.join(dir, name);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const read = (name: string) => fs.readFileSync(file(name), 'utf8');
  fs.writeFileSync(file('san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n');
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('ca.key'), '-out', file('ca.crt'), '-days', '30', '-subj', '/CN=Checks Test CA');
  const leaf = (name: string, days: number) => {
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', file(`${name}.key`), '-out', file(`${name}.csr`), '-subj', '/CN=localhost');
    ssl('x509', '-req', '-in', file(`${name}.csr`), '-CA', file('ca.crt'), '-CAkey', file('ca.key'), '-CAcreateserial',
      '-out', file(`${name}.crt`), '-days', String(days), '-extfile', file('san.ext'));
    return { key: read(`${name}.key`), cert: read(`${name}.crt`) };
  };
  const valid = leaf('valid', 90);
  const expiring = leaf('expiring', 3);
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('self.key'), '-out', file('self.crt'), '-days', '30',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1');
  cached = { ca: { key: read('ca.key'), cert: read('ca.crt') }, valid, expiring, selfSigned: { key: read('self.key'), cert: read('self.crt') } };
  fs.rmSync(dir, { recursive: true, force: true });
  return cached;
}
