import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../../src');
const MAX_LINES = 300;

const sources = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });

describe('the sources stay readable', () => {
  it(`keeps every source file within ${MAX_LINES} lines (split by concept past that)`, () => {
    const files = sources(root);
    const long = files
      .map((file) => ({ file: path.relative(root, file), lines: fs.readFileSync(file, 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(files.length).to.be.greaterThan(500);
    expect(long).to.deep.equal([]);
  });
});
