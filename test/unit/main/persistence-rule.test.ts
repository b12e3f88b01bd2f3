import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { typeScriptFiles } from '../../support/source-files';

/**
 * The persistence rule of docs/architecture.md: every aggregate is saved through the `sql` kit;
 * MikroORM is the pool, the migrations and the transaction, and only the persistence kit and the
 * composition root know it. One transaction mechanism: TransactionRunner.run(tx => ...).
 */
const SRC = path.resolve(__dirname, '../../../src');

/** Where MikroORM may be named: the kit that wraps it, and the composition root. */
const KIT = ['infrastructure/persistence/', 'main/'];

const files = typeScriptFiles(SRC).map((file) => ({
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

/**
 * The repositories whose updates carry no version, why a version would protect nothing a user made,
 * and the statement that keeps the reason true (each is checked in the repository's text).
 */
const WITHOUT_VERSION: Record<string, { why: string; holds: RegExp }> = {
  'infrastructure/locations/sql-probe-key.repository.ts': {
    why: 'a probe key is never edited: its one change is its revocation, written only while it is not revoked, so the first revocation stays',
    holds: /UPDATE probe_keys SET revoked_at = \$\{key\.revokedAt\} WHERE id = \$\{key\.id\} AND revoked_at IS NULL/,
  },
  'infrastructure/agent-access/sql-agent-access-token.repository.ts': {
    why: 'an agent token is never edited: its one change is its revocation, written only while it is not revoked',
    holds: /SET revoked_at = [^`]*AND revoked_at IS NULL/,
  },
  'infrastructure/identity/sql-invitation.repository.ts': {
    why: 'an invitation is accepted or revoked once, each only while it is still pending (the statement checks it)',
    holds: /accepted_at IS NULL AND revoked_at IS NULL AND expires_at >/,
  },
  'infrastructure/identity/sql-platform-settings.repository.ts': {
    why: 'a change sets only the toggles it sends, in the statement itself (no copy read earlier is written back)',
    holds: /COALESCE\(\$\{change\.agentAuthEnabled \?\? null\}, agent_auth_enabled\)/,
  },
  'infrastructure/data-export/sql-data-export.repository.ts': {
    why: 'an export is written by the worker holding its lease, never by a user',
    holds: /lease_owner = \$\{owner\}/,
  },
  'infrastructure/incidents/sql-alert-state.repository.ts': {
    why: 'alert states are locked (SELECT ... FOR UPDATE) by the one transaction that changes them',
    holds: /FOR UPDATE/,
  },
};

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

  it('every repository that updates a row names the version it read, or says here why a version makes no sense', () => {
    const found = files
      .filter(({ name }) => /^infrastructure\/[^/]+\/sql-[^/]*\.repositor(y|ies)\.ts$/.test(name))
      .filter(({ text }) => /\bUPDATE\s+(SET|[a-z_]+\s)/.test(text))
      .filter(({ text }) => !/versionSaved|version = version \+ 1|\.version \+ 1/.test(text))
      .map(({ name }) => name);
    expect(found.sort()).to.deep.equal(Object.keys(WITHOUT_VERSION).sort());
    for (const [name, check] of Object.entries(WITHOUT_VERSION)) {
      const text = files.find((file) => file.name === name)!.text;
      expect(text, `${name}: ${check.why}`).to.match(check.holds);
    }
  });
});
