import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Pem {
  key: string;
  cert: string;
}
export interface TestCertificates {
  /** The test CA the checkers are told to trust. */
  ca: Pem;
  /** localhost / 127.0.0.1, signed by the CA, valid 90 days. */
  valid: Pem;
  /** Same names, signed by the CA, expiring in 3 days. */
  expiring: Pem;
  /** Self-signed, not trusted by anyone. */
  selfSigned: Pem;
  /** localhost / 127.0.0.1, signed by an intermediate the CA signed: `cert` sends the intermediate, `leafOnly` does not. */
  chained: Pem & { leafOnly: string };
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
  ssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
    '-days',
    '30',
    '-subj',
    '/CN=Checks Test CA',
  );
  const leaf = (name: string, days: number) => {
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', file(`${name}.key`), '-out', file(`${name}.csr`), '-subj', '/CN=localhost');
    ssl(
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file('ca.crt'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file(`${name}.crt`),
      '-days',
      String(days),
      '-extfile',
      file('san.ext'),
    );
    return { key: read(`${name}.key`), cert: read(`${name}.crt`) };
  };
  const valid = leaf('valid', 90);
  fs.writeFileSync(file('intermediate.ext'), 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n');
  ssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('intermediate.key'),
    '-out',
    file('intermediate.csr'),
    '-subj',
    '/CN=Checks Test Intermediate',
  );
  ssl(
    'x509',
    '-req',
    '-in',
    file('intermediate.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('intermediate.crt'),
    '-days',
    '30',
    '-extfile',
    file('intermediate.ext'),
  );
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('chained.key'), '-out', file('chained.csr'), '-subj', '/CN=localhost');
  ssl(
    'x509',
    '-req',
    '-in',
    file('chained.csr'),
    '-CA',
    file('intermediate.crt'),
    '-CAkey',
    file('intermediate.key'),
    '-CAcreateserial',
    '-out',
    file('chained.crt'),
    '-days',
    '60',
    '-extfile',
    file('san.ext'),
  );
  const chained = { key: read('chained.key'), cert: read('chained.crt') + read('intermediate.crt'), leafOnly: read('chained.crt') };
  const expiring = leaf('expiring', 3);
  ssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('self.key'),
    '-out',
    file('self.crt'),
    '-days',
    '30',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
  );
  cached = {
    ca: { key: read('ca.key'), cert: read('ca.crt') },
    valid,
    expiring,
    selfSigned: { key: read('self.key'), cert: read('self.crt') },
    chained,
  };
  fs.rmSync(dir, { recursive: true, force: true });
  return cached;
}
