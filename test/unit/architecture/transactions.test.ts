import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { typeScriptFiles } from '../../support/source-files';

/**
 * One way to join a transaction (issue 62, section 1; docs/architecture.md "Transactions and
 * time"): a write port, and a read that must see a write's snapshot, takes `tx: Transaction`
 * REQUIRED, handed down from `TransactionRunner.run(tx => ...)`. A port whose `tx` is optional
 * lets a caller forget it, and the write then stands alone (or joins an ambient unit of work)
 * without the signature saying so.
 */
const SRC = path.resolve(__dirname, '../../../src');

const files = typeScriptFiles(SRC).map((file) => ({
  name: path.relative(SRC, file).split(path.sep).join('/'),
  text: fs.readFileSync(file, 'utf8'),
}));

/** An optional transaction, however it is spelled. */
const OPTIONAL_TX = [/\btx\?\s*:/, /\bTransaction\s*\|\s*undefined\b/, /\bundefined\s*\|\s*Transaction\b/, /\w+\?\s*:\s*Transaction\b/];

/** The ambient unit of work (gone): MikroORM's request context and the SQL handle that joined it. */
const AMBIENT = /\bRequestContext\b|\bContextSql\b|\bCONTEXT_SQL\b/;

/** An INSERT, UPDATE or DELETE in a statement's text. */
const WRITE = /\b(INSERT\s+INTO|UPDATE\s+\w+(\s+\w+)?\s+SET|DELETE\s+FROM)\b/i;

/**
 * The helpers that build a write to interpolate into a statement (an exported function or const of
 * infrastructure/ whose definition holds a write, such as the workers' renewal): a statement that
 * calls one writes as surely as one that spells its INSERT, UPDATE or DELETE out.
 */
const WRITE_FRAGMENTS = files
  .filter(({ name }) => name.startsWith('infrastructure/'))
  .flatMap(({ text }) =>
    [...text.matchAll(/\nexport (?:const|function) (\w+)/g)]
      .filter((m) => {
        const rest = text.slice(m.index + 1);
        const end = rest.search(/\n(?:export |\/\*\*)/);
        const definition = end < 0 ? rest : rest.slice(0, end);
        return definition.includes('sql`') && WRITE.test(definition);
      })
      .map((m) => m[1]!),
  );

/** Whether a statement's text writes: a write spelt out, or a call of a write fragment. */
const writes = (statement: string, fragments: readonly string[] = WRITE_FRAGMENTS) =>
  WRITE.test(statement) || fragments.some((name) => new RegExp(`\\b${name}\\(`).test(statement));

/** The text from an opening parenthesis to the one that closes it. */
function argumentsAt(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open, i + 1);
  }
  return text.slice(open);
}

/** The adapters the composition builds on POOL_SQL (MikroORM's pool): the application's persistence ports. */
const POOL_ADAPTERS = new Set(
  files
    .filter(({ name }) => name.startsWith('main/'))
    .flatMap(({ text }) => [...text.matchAll(/new (\w+)\(\s*c\.get(?:<[^>]*>)?\(POOL_SQL\)/g)].map((m) => m[1]!)),
);

/**
 * `file Class.method` for each method of a POOL_SQL adapter that runs an INSERT, UPDATE or DELETE
 * on one of its own SQL handles (a constructor parameter: a pool, never the caller's transaction)
 * instead of on `sqlOf(tx)`.
 */
function poolWrites(name: string, text: string): string[] {
  return [...text.matchAll(/export class (\w+)[^{]*\{/g)]
    .filter((c) => POOL_ADAPTERS.has(c[1]!))
    .flatMap((c) => {
      const end = text.indexOf('\n}\n', c.index);
      const body = text.slice(c.index, end < 0 ? undefined : end);
      const handles = [...body.matchAll(/private readonly (\w+): (?:SqlRunner|UnitOfWorkSql)\b/g)].map((h) => h[1]!);
      if (handles.length === 0) return [];
      const onHandle = new RegExp(`this\\.(?:${handles.join('|')})\\s*\\.query(?:<[^>]*>)?\\(`, 'g');
      const methods = [...body.matchAll(/\n {2}(?:private |protected )?(?:async )?(\w+)\s*(?:<[^>]*>)?\(/g)];
      return methods.flatMap((m, i) => {
        const code = body.slice(m.index, methods[i + 1]?.index ?? body.length);
        const written = [...code.matchAll(onHandle)].some((q) => writes(argumentsAt(code, q.index + q[0].length - 1)));
        return written ? [`${name} ${c[1]}.${m[1]}`] : [];
      });
    });
}

/**
 * The writes that stand alone on the pool, each for the reason its port's doc comment gives (one
 * statement, with nothing around it to join). This list only shrinks: a new write takes the
 * caller's `tx` (`sqlOf(tx)`), never a place here.
 */
const STANDING_ALONE = [
  // Purge jobs: one DELETE each, nothing else written with it.
  'infrastructure/agent-access/sql-agent-access-token.repository.ts SqlAgentAccessTokenRepository.purgeExpired',
  'infrastructure/agent-access/sql-agent-registration.repository.ts SqlAgentRegistrationRepository.purge',
  'infrastructure/custom-domains/sql-custom-domain.repository.ts SqlCustomDomainRepository.purgeExpired',
  // Probes: the hello and the liveness note are one statement each; the steady batch is one statement that is its own transaction.
  'infrastructure/probes/sql-probe-registry.ts SqlProbeRegistry.greet',
  'infrastructure/probes/sql-probe-registry.ts SqlProbeRegistry.touch',
  'infrastructure/probes/sql-steady-probe-results.ts SqlSteadyProbeResults.store',
  // A location code's id registry: the id must outlive whatever transaction first asked for it.
  'infrastructure/results/location-codes.ts LocationCodes.idOf',
  // The check engine's worker protocol on its own pool (SQL): leases and fences, one statement each, that must commit at once.
  'infrastructure/scheduling/pg-check-schedule.ts PgCheckSchedule.claim',
  'infrastructure/scheduling/pg-check-schedule.ts PgCheckSchedule.heartbeat',
  'infrastructure/scheduling/pg-check-schedule.ts PgCheckSchedule.prune',
  'infrastructure/scheduling/pg-check-schedule.ts PgCheckSchedule.register',
  'infrastructure/scheduling/pg-check-schedule.ts PgCheckSchedule.release',
  'infrastructure/scheduling/pg-check-schedule.ts PgCheckSchedule.resign',
  // A steady batch of the engine: the worker's renewal and its results in one statement, all of it or none.
  'infrastructure/scheduling/sql-steady-check-results.ts SqlSteadyCheckResults.storeRenewing',
  // trigger-check: one statement (the schedule rows and the change log together), nothing else to join.
  'infrastructure/scheduling/pg-check-schedule.ts PgCheckSchedule.dueNow',
];

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

  it("a POOL_SQL adapter's writes run on the caller's tx (sqlOf(tx)); the few that stand alone on the pool are listed, with their reason", () => {
    const found = files.filter(({ name }) => name.startsWith('infrastructure/')).flatMap(({ name, text }) => poolWrites(name, text));
    expect(found.sort()).to.deep.equal([...STANDING_ALONE].sort());
  });

  it('the pool-write scan finds a write on a handle and passes one on sqlOf(tx)', () => {
    expect(POOL_ADAPTERS.has('SqlCustomDomainRepository')).to.equal(true);
    const adapter = (method: string) => `export class SqlCustomDomainRepository implements X {
  constructor(private readonly sql: SqlRunner) {}

  async find(id: number): Promise<void> {
    await this.sql.query(sql\`SELECT 1 FROM t WHERE id = \${id}\`);
  }
${method}
}
`;
    expect(
      poolWrites(
        'f.ts',
        adapter('  async remove(id: number): Promise<void> {\n    await this.sql\n      .query(sql`DELETE FROM t WHERE id = ${id}`);\n  }'),
      ),
    ).to.deep.equal(['f.ts SqlCustomDomainRepository.remove']);
    expect(
      poolWrites(
        'f.ts',
        adapter(
          '  async remove(id: number, tx: Transaction): Promise<void> {\n    await sqlOf(tx).query(sql`DELETE FROM t WHERE id = ${id}`);\n  }',
        ),
      ),
    ).to.deep.equal([]);
  });

  it("counts a statement built with a write fragment as a write (the workers' renewal)", () => {
    expect(WRITE_FRAGMENTS).to.include('renewWorkers');
    expect(writes('sql`WITH renewed AS (${renewWorkers(sql`worker_id = ${id}`, now, until)}) SELECT 1`')).to.equal(true);
    expect(writes('sql`SELECT ${notAWrite(x)} FROM t`')).to.equal(false);
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
