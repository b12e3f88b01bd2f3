import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

/**
 * One way to join a transaction (issue 62, section 1; docs/architecture.md "Transactions and
 * time"): a write port, and a read that must see a write's snapshot, takes `tx: Transaction`
 * REQUIRED, handed down from `TransactionRunner.run(tx => ...)`. A port whose `tx` is optional
 * lets a caller forget it, and the write then stands alone (or joins an ambient unit of work)
 * without the signature saying so.
 */
const SRC = path.resolve(__dirname, '../../../src');

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

/** An optional transaction, however it is spelled. */
const OPTIONAL_TX = [/\btx\?\s*:/, /\bTransaction\s*\|\s*undefined\b/, /\bundefined\s*\|\s*Transaction\b/, /\w+\?\s*:\s*Transaction\b/];

/** The ambient unit of work (gone): MikroORM's request context and the SQL handle that joined it. */
const AMBIENT = /\bRequestContext\b|\bContextSql\b|\bCONTEXT_SQL\b/;

/** The audit trail's own request context (who acts, from where) is not a unit of work. */
const withoutAuditContext = (text: string) => text.replace(/\bAuditRequestContext\b/g, '');

describe('transactions: one way to join one (issue 62)', () => {
  it('no application signature takes its transaction optionally', () => {
    const found = files
      .filter(({ name }) => name.startsWith('application/'))
      .flatMap(({ name, text }) =>
        text
          .split('\n')
          .flatMap((line, n) => (OPTIONAL_TX.some((pattern) => pattern.test(line)) ? [`${name}:${n + 1}: ${line.trim()}`] : [])),
      );
    expect(found).to.deep.equal([]);
  });

  it('no adapter takes its transaction optionally either, and the fallback that served it is gone', () => {
    const found = files
      .filter(({ name }) => name.startsWith('infrastructure/') || name.startsWith('interfaces/'))
      .flatMap(({ name, text }) =>
        text
          .split('\n')
          .flatMap((line, n) => (/\btx\?\s*:|\btx:\s*Transaction\s*\|\s*undefined\b|\bsqlFor\(/.test(line) ? [`${name}:${n + 1}`] : [])),
      );
    expect(found).to.deep.equal([]);
  });

  it('no source file names the ambient unit of work (RequestContext, ContextSql, CONTEXT_SQL): a write joins a transaction only by its tx', () => {
    const using = files.filter(({ text }) => AMBIENT.test(withoutAuditContext(text))).map(({ name }) => name);
    expect(using).to.deep.equal([]);
  });

  it('the patterns find what they look for (so an empty answer means something)', () => {
    expect(OPTIONAL_TX.some((p) => p.test('  save(user: User, tx?: Transaction): Promise<void>;'))).to.equal(true);
    expect(OPTIONAL_TX.some((p) => p.test('  run(tx: Transaction | undefined) {'))).to.equal(true);
    expect(OPTIONAL_TX.some((p) => p.test('  save(user: User, tx: Transaction): Promise<void>;'))).to.equal(false);
    expect(AMBIENT.test("import { RequestContext } from '@mikro-orm/postgresql';")).to.equal(true);
    expect(AMBIENT.test('new SqlTeamRepository(c.get(CONTEXT_SQL))')).to.equal(true);
    expect(AMBIENT.test('new ContextSql(orm)')).to.equal(true);
    expect(AMBIENT.test(withoutAuditContext('export interface AuditRequestContext {'))).to.equal(false);
  });
});
