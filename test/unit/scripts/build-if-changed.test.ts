import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildIfChanged, fingerprint, isBuildCurrent } = require('../../../scripts/build-if-changed.cjs') as {
  fingerprint(root: string): string;
  isBuildCurrent(root: string): boolean;
  buildIfChanged(root: string, log: (line: string) => void): number;
};

/** A checkout-shaped directory: sources, the tsconfig files, a lockfile, and a built entry point. */
function aCheckout(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'build-stamp-'));
  mkdirSync(path.join(root, 'src', 'main'), { recursive: true });
  writeFileSync(path.join(root, 'src', 'main', 'server.ts'), 'export const a = 1;\n');
  writeFileSync(path.join(root, 'tsconfig.json'), '{}');
  writeFileSync(path.join(root, 'tsconfig.build.json'), '{}');
  writeFileSync(path.join(root, 'package-lock.json'), '{}');
  mkdirSync(path.join(root, 'dist', 'src', 'main'), { recursive: true });
  writeFileSync(path.join(root, 'dist', 'src', 'main', 'server.js'), '');
  return root;
}

describe('npm start: build only when the sources changed', () => {
  const roots: string[] = [];
  after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));
  const checkout = () => {
    const root = aCheckout();
    roots.push(root);
    return root;
  };
  const stamp = (root: string) => writeFileSync(path.join(root, 'dist', '.build-stamp'), `${fingerprint(root)}\n`);

  it('is current when the stamp matches the sources, and starts without compiling, saying so', () => {
    const root = checkout();
    stamp(root);
    expect(isBuildCurrent(root)).to.equal(true);
    const lines: string[] = [];
    expect(buildIfChanged(root, (line) => lines.push(line))).to.equal(0);
    expect(lines).to.deep.equal(['TypeScript build is current (sources unchanged since the last build): starting.']);
  });

  it('is not current after a source, a tsconfig or the lockfile changed, nor without a stamp or a built entry point', () => {
    for (const change of [
      (root: string) => writeFileSync(path.join(root, 'src', 'main', 'server.ts'), 'export const a = 2;\n'),
      (root: string) => writeFileSync(path.join(root, 'src', 'main', 'new-file.ts'), ''),
      (root: string) => writeFileSync(path.join(root, 'tsconfig.build.json'), '{"x":1}'),
      (root: string) => writeFileSync(path.join(root, 'package-lock.json'), '{"lockfileVersion":3}'),
      (root: string) => rmSync(path.join(root, 'dist', '.build-stamp')),
      (root: string) => rmSync(path.join(root, 'dist', 'src', 'main', 'server.js')),
    ]) {
      const root = checkout();
      stamp(root);
      change(root);
      expect(isBuildCurrent(root)).to.equal(false);
    }
  });

  it('depends on content, not on file times (a fresh checkout of the same sources is current)', () => {
    const a = checkout();
    const b = checkout();
    expect(fingerprint(a)).to.equal(fingerprint(b));
  });
});
