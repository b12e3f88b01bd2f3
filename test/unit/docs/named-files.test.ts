import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The README and the docs name files and commands in backticks; a newcomer follows them. Every file
 * they name exists (a path from the repository's root, or the end of one: `gates/index.ts`), and every
 * `npm run <script>` they tell you to type is a script of package.json. A file the build generates
 * counts when .gitignore names its path. The hypothetical `widgets`
 * context of docs/architecture.md's "Adding a context" is an example, not a file.
 */
const ROOT = path.resolve(__dirname, '../../..');
const documents = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);
/** Files the build writes (console/src/api/schema.d.ts...), named in .gitignore by their path. */
const generated = readFileSync(path.join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .filter((line) => line.includes('/') && !line.endsWith('/'));
const scripts = Object.keys((JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts);

/** The file paths a text names in backticks: with a directory and an extension, no placeholders or examples. */
function namedFiles(markdown: string): string[] {
  return [
    ...new Set(
      [...markdown.matchAll(/`([^`\s]+)`/g)]
        .map((m) => m[1]!.replace(/[.,:;)]+$/, '').replace(/:\d+$/, ''))
        .filter((p) => p.includes('/') && /\.(ts|tsx|md|json|cjs|mjs|sql|ya?ml|sh)$/.test(p))
        .filter((p) => !/[<>*{}$]|widget|^[a-z]+:|^\.?\//.test(p) && !p.includes('../')),
    ),
  ];
}

const exists = (named: string) => [...tracked, ...generated].some((file) => file === named || file.endsWith(`/${named}`));

describe('documentation: the files and commands it names exist', () => {
  it('sees named files (the scan is not blind)', () => {
    expect(namedFiles('`src/main/http.ts`, `gates/index.ts`: `<kind>.ts` `https://x.example/a.json` `./wsm.schema.json`')).to.deep.equal([
      'src/main/http.ts',
      'gates/index.ts',
    ]);
    expect(exists('gates/index.ts')).to.equal(true);
    expect(exists('src/nowhere/gone.ts')).to.equal(false);
  });

  for (const document of documents) {
    it(`${document}: every file it names exists, every npm run is a script`, () => {
      const text = readFileSync(path.join(ROOT, document), 'utf8');
      expect(
        namedFiles(text).filter((named) => !exists(named)),
        'named files that do not exist',
      ).to.deep.equal([]);
      const commands = [...text.matchAll(/npm run ([a-z][\w:-]*)/g)].map((m) => m[1]!);
      expect(
        commands.filter((command) => !scripts.includes(command)),
        'npm scripts that do not exist',
      ).to.deep.equal([]);
    });
  }
});
