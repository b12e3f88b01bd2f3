import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readmeScreenshotsDir } from '../../support/readme-screenshots';

const ROOT = path.resolve(__dirname, '../../..');
/** A string literal that leads to the README's pictures (`'../../../docs/screenshots'`), not a comment naming them. */
const PATH_TO_DOCS = /['"`](?:[^'"`\n]*\/)?docs\/screenshots/;

/**
 * The README's pictures are refreshed on purpose only: a test run writes them under .test-data (never
 * the checkout's docs/screenshots) unless UPDATE_SCREENSHOTS=1, which `npm run screenshots` sets.
 */
describe("the README's screenshots", () => {
  it('go to .test-data/screenshots on an ordinary run, and to docs/screenshots with UPDATE_SCREENSHOTS=1', () => {
    expect(readmeScreenshotsDir({})).to.equal(path.join(ROOT, '.test-data/screenshots'));
    expect(readmeScreenshotsDir({ UPDATE_SCREENSHOTS: '0' })).to.equal(path.join(ROOT, '.test-data/screenshots'));
    expect(readmeScreenshotsDir({ UPDATE_SCREENSHOTS: '1' })).to.equal(path.join(ROOT, 'docs/screenshots'));
  });

  it('no test names docs/screenshots in a path of its own: they ask readmeScreenshotsDir', () => {
    const tests = readdirSync(path.join(ROOT, 'test/integration'), { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.ts'));
    const writers = tests.filter((file) => readFileSync(path.join(ROOT, 'test/integration', file), 'utf8').match(PATH_TO_DOCS));
    expect(writers).to.deep.equal([]);
    expect(
      tests.filter((file) => readFileSync(path.join(ROOT, 'test/integration', file), 'utf8').includes('readmeScreenshotsDir()')),
    ).to.have.length.of.at.least(2);
  });

  it('npm run screenshots refreshes them (the tests that take them, with UPDATE_SCREENSHOTS=1)', () => {
    const script = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
      .screenshots!;
    expect(script).to.include('UPDATE_SCREENSHOTS=1');
    expect(script)
      .to.include('test/integration/console/console-phone.test.ts')
      .and.include('test/integration/console/console-wall.test.ts');
  });
});
