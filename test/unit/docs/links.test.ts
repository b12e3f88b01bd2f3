import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const documents = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Markdown link targets ([text](target) and [ref]: target) that are not web addresses, mail or in-page anchors. */
function relativeTargets(markdown: string): string[] {
  const inline = [...markdown.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const references = [...markdown.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!);
  return [...inline, ...references].filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'));
}

describe('documentation links: a clone stands alone', () => {
  it('finds the documents to scan (README.md and docs/*.md)', () => {
    expect(documents).to.include('README.md').and.to.include('docs/configuration.md');
  });

  it('sees relative links (the scan is not blind)', () => {
    expect(relativeTargets('[a](docs/x.md) [b](../y.md#z) [c](https://e.example) [d](#top)\n[e]: ./f.md')).to.deep.equal([
      'docs/x.md',
      '../y.md#z',
      './f.md',
    ]);
  });

  for (const document of documents) {
    it(`${document}: every relative link points to a file inside the repository`, () => {
      const base = path.dirname(path.join(ROOT, document));
      const broken = relativeTargets(readFileSync(path.join(ROOT, document), 'utf8')).filter((target) => {
        const file = path.resolve(base, decodeURIComponent(target.split('#')[0]!.split('?')[0]!));
        const inside = file === ROOT || file.startsWith(ROOT + path.sep);
        return !inside || !existsSync(file);
      });
      expect(broken, `${document}: links to nothing inside the repository`).to.deep.equal([]);
    });
  }
});
