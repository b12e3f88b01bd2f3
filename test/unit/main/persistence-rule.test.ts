import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The persistence rule of docs/architecture.md: every aggregate is saved through the `sql` kit;
 * MikroORM is the pool, the migrations and the transaction, and only the persistence kit and the
 * composition root know it. One transaction mechanism: TransactionRunner.run(tx => ...).
 */
const SRC = path.resolve(__dirname, '../../../src');

/** Where MikroORM may be named: the kit that wraps it, and the composition root. */
const KIT = ['infrastructure/persistence/', 'main/'];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const files = sources(SRC).map((file) => ({
  name: path.relative(SRC, file).split(path.sep).join('/'),
  text: fs.readFileSync(file, 'utf8'),
}));
const inKit = (name: string) => KIT.some((prefix) => name.startsWith(prefix));

/** What only the kit may do: name MikroORM, map entities, reach an entity manager, open a request context. */
const ORM_USE: Array<[string, RegExp]> = [
  ['imports MikroORM', /from '@mikro-orm\//],
  ['maps an entity (EntitySchema)', /\bEntitySchema\b/],
  ['uses an entity manager', /(\.|\bthis\.)em\b(?!ail)/],
  ['extends the ORM repository base', /extends (OrmRepository|TenancyRepository)\b/],
  ['opens a MikroORM RequestContext', /\bRequestContext\.create\b/],
];

const breaches = (text: string) => ORM_USE.filter(([, pattern]) => pattern.test(text)).map(([what]) => what);

describe('the persistence rule (issue 49): aggregates on the sql kit, MikroORM only in the kit and the composition root', () => {
  it('no file outside the persistence kit and src/main uses the ORM', () => {
    const found = files.filter(({ name }) => !inKit(name)).flatMap(({ name, text }) => breaches(text).map((what) => `${name} ${what}`));
    expect(found).to.deep.equal([]);
  });

  it('the adapters of src/interfaces, the application and the domain know no MikroORM, not even its RequestContext', () => {
    const found = files
      .filter(({ name }) => /^(interfaces|application|domain)\//.test(name))
      .filter(({ text }) => /@mikro-orm|\bRequestContext\b|\bOrmRepository\b/.test(text))
      .map(({ name }) => name);
    expect(found).to.deep.equal([]);
  });

  it('one transaction mechanism: no BEGIN of its own outside the kit (the runner hands out every transaction)', () => {
    const found = files
      .filter(({ name }) => !inKit(name))
      .filter(({ text }) => /\bSqlTransactions\b|['"`]BEGIN['"`;\s]/.test(text))
      .map(({ name }) => name);
    expect(found).to.deep.equal([]);
  });

  it('every use case that opens a transaction takes it (run(tx => ...), never run(() => ...)), to hand it to its writes', () => {
    const found = files
      .filter(({ name }) => name.startsWith('application/'))
      .filter(({ text }) => /\.run\((async )?\(\) =>/.test(text))
      .map(({ name }) => name);
    expect(found).to.deep.equal([]);
  });

  it('the application names the transaction it joins: a TransactionRunner hands its work a Transaction', () => {
    const port = files.find(({ name }) => name === 'application/shared/transaction.ts')!.text;
    expect(port).to.match(/run<T>\(work: \(tx: Transaction\) => Promise<T>\): Promise<T>;/);
    expect(port).not.to.match(/@mikro-orm|infrastructure/);
  });
});
