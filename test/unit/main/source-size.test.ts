import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const MAX_LINES = 300;
/** Files the build writes from the API's description (console/src/api/schema.d.ts, catalogue.ts): named in .gitignore. */
const generated = new Set(
  fs
    .readFileSync(path.join(ROOT, '.gitignore'), 'utf8')
    .split('\n')
    .filter((line) => line.includes('/') && !line.endsWith('/')),
);

const sources = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !generated.has(path.relative(ROOT, full)) ? [full] : [];
  });

const tooLong = (files: readonly string[]) =>
  files
    .map((file) => ({ file: path.relative(ROOT, file), lines: fs.readFileSync(file, 'utf8').split('\n').length }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`);

describe('the sources stay readable', () => {
  it(`keeps every source file of the service within ${MAX_LINES} lines (split by concept past that)`, () => {
    const files = sources(path.join(ROOT, 'src'));
    expect(files.length).to.be.greaterThan(500);
    expect(tooLong(files)).to.deep.equal([]);
  });

  it(`keeps every source file of the console within ${MAX_LINES} lines, the generated ones aside`, () => {
    const files = sources(path.join(ROOT, 'console/src'));
    expect(files.length).to.be.greaterThan(100);
    expect(files.map((file) => path.relative(ROOT, file))).not.to.include('console/src/api/schema.d.ts');
    expect(tooLong(files)).to.deep.equal([]);
  });
});
