import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { CONTEXTS } from '../../../src/main/contexts';

const SRC = path.resolve(__dirname, '../../../src');
/** The bounded contexts, as folders of the application layer (shared is everyone's). */
const CONTEXT_FOLDERS = fs
  .readdirSync(path.join(SRC, 'application'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'shared')
  .map((entry) => entry.name);

const importsOf = (file: string): string[] =>
  [...fs.readFileSync(path.join(SRC, 'main', file), 'utf8').matchAll(/from '([^']+)'/g)].map((match) => match[1]!);

/** An import of a context's own files (any layer, or its module), rather than of the host's kit. */
const namesAContext = (specifier: string): boolean =>
  /\/modules\/(?!context-module$|bindings$)/.test(specifier) ||
  CONTEXT_FOLDERS.some((context) =>
    new RegExp(`/(domain|application|infrastructure|interfaces/http|interfaces/jobs)/${context}/`).test(specifier),
  );

describe('the host names no context: it iterates the list of contexts (src/main/contexts.ts)', () => {
  for (const file of ['application.ts', 'library.ts', 'http.ts', 'host-parts.ts', 'container.ts', 'container-check.ts']) {
    it(`src/main/${file} imports nothing of any context`, () => {
      expect(importsOf(file).filter(namesAContext)).to.deep.equal([]);
    });
  }

  it('lists results and watches as contexts of their own, with the platform first', () => {
    const names = CONTEXTS.map((context) => context.name);
    expect(names[0]).to.equal('platform');
    expect(names).to.include.members(['results', 'watches']);
    expect(new Set(names).size).to.equal(names.length);
  });
});
