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

/** The ambient unit of work: MikroORM's request context and the SQL handle that joined it. */
const AMBIENT = /\bRequestContext\b|\bContextSql\b|\bCONTEXT_SQL\b/;

/**
 * The files that still name the ambient unit of work (the composition root binds adapters to it, the
 * host opens it). This list only shrinks: a file added here is a new use of the ambient unit.
 */
const AMBIENT_LEFT = new Set([
  'infrastructure/persistence/context-sql.ts',
  'infrastructure/persistence/database.ts',
  'infrastructure/persistence/mikro-orm-transaction-runner.ts',
  'infrastructure/persistence/row.ts',
  'interfaces/http/status-pages/public-views.ts',
  'main/http.ts',
  'main/jobs.ts',
  'main/library.ts',
  'main/modules/agent-access.module.ts',
  'main/modules/audit.module.ts',
  'main/modules/billing.module.ts',
  'main/modules/check-worker.ts',
  'main/modules/custom-domains.module.ts',
  'main/modules/data-export.module.ts',
  'main/modules/host-routing.front.ts',
  'main/modules/identity-host.ts',
  'main/modules/identity-sso.bindings.ts',
  'main/modules/identity.module.ts',
  'main/modules/incident-management.module.ts',
  'main/modules/incidents.module.ts',
  'main/modules/invitation.bindings.ts',
  'main/modules/locations.module.ts',
  'main/modules/maintenance.module.ts',
  'main/modules/monitoring.module.ts',
  'main/modules/notification-delivery.bindings.ts',
  'main/modules/notification-worker.ts',
  'main/modules/notifications.module.ts',
  'main/modules/on-call.module.ts',
  'main/modules/platform.module.ts',
  'main/modules/probes.module.ts',
  'main/modules/reports.module.ts',
  'main/modules/results.module.ts',
  'main/modules/scheduling.module.ts',
  'main/modules/service-levels.module.ts',
  'main/modules/status-pages.module.ts',
  'main/modules/tenancy.module.ts',
  'main/tokens.ts',
]);

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

  it('the ambient unit of work (RequestContext, ContextSql) reaches no file beyond those still being moved off it', () => {
    const using = files.filter(({ text }) => AMBIENT.test(withoutAuditContext(text))).map(({ name }) => name);
    expect(using.filter((name) => !AMBIENT_LEFT.has(name))).to.deep.equal([]);
    // A file that no longer uses it leaves the list, so the list says what is left.
    expect([...AMBIENT_LEFT].filter((name) => !using.includes(name))).to.deep.equal([]);
  });

  it('the patterns find what they look for (so an empty answer means something)', () => {
    expect(OPTIONAL_TX.some((p) => p.test('  save(user: User, tx?: Transaction): Promise<void>;'))).to.equal(true);
    expect(OPTIONAL_TX.some((p) => p.test('  run(tx: Transaction | undefined) {'))).to.equal(true);
    expect(OPTIONAL_TX.some((p) => p.test('  save(user: User, tx: Transaction): Promise<void>;'))).to.equal(false);
    expect(AMBIENT.test("import { RequestContext } from '@mikro-orm/postgresql';")).to.equal(true);
    expect(AMBIENT.test(withoutAuditContext('export interface AuditRequestContext {'))).to.equal(false);
  });
});
