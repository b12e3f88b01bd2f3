import { expect } from 'chai';
import { api } from '../../support/http-client';
import { withAgentWrites } from '../../support/monitoring-fixtures';
import { buildWorld, CALLERS, type CallerClass, type MatrixWorld } from '../../support/tenancy-matrix-world';
import { observe, operationsOf, pool, type Observation, type Operation, type Outcome } from '../../support/tenancy-matrix-runner';
import { COLUMNS, expectedOutcomes, FINAL_OPERATIONS, MATRIX, rowOf } from './tenancy-matrix.table';

/**
 * Every operation the running service documents at /openapi.json, as every caller class, with path
 * ids of organization A's records; each answer's class must be the one tenancy-matrix.table.ts states.
 * `MATRIX_PRINT=1` prints what was observed in the table's notation (to write the row of a new route).
 */
describe('security: tenancy matrix (every operation x every caller class)', function () {
  this.timeout(240_000);
  let world: MatrixWorld;
  let operations: Operation[];
  const observations: Observation[] = [];

  /** Callers of one operation go one after another, those expected to be refused first, so a state change cannot mask a refusal. */
  const ORDER: CallerClass[] = [
    'anonymous',
    'agentPublic',
    'agentRead',
    'stranger',
    'supporter',
    'readonly',
    'responder',
    'customerToken',
    'customerUser',
    'editor',
    'orgToken',
    'admin',
  ];

  before(async function () {
    this.timeout(120_000);
    world = await buildWorld();
    operations = await operationsOf((await api('GET', '/openapi.json')).body);
    const final = new Set(FINAL_OPERATIONS);
    const destructive = (op: Operation) => op.method === 'DELETE' && !final.has(op.key);
    const plain = operations.filter((op) => !final.has(op.key) && !destructive(op));

    await pool(plain, 6, async (op) => {
      for (const caller of ORDER) observations.push(await observe(world, op, caller));
    });
    await withAgentWrites(async () => {
      // The write scopes only open with the platform's agent-write switch on.
      await pool(plain, 6, async (op) => observations.push(await observe(world, op, 'agentWrite')));
      await pool(operations.filter(destructive), 4, (op) => runDestructive(op));
    });
    // Operations that change the callers themselves (sessions, consent, calendar feed tokens) go last, one caller at a time.
    for (const key of FINAL_OPERATIONS) {
      const op = operations.find((candidate) => candidate.key === key);
      if (!op) continue;
      for (const caller of ['agentPublic', 'agentRead', 'agentWrite', ...ORDER.filter((c) => !c.startsWith('agent'))] as CallerClass[]) {
        observations.push(await observe(world, op, caller));
      }
    }
    if (process.env.MATRIX_PRINT) printObserved();
  });

  /**
   * A destructive operation: the callers expected to be refused try one fresh record (or the shared
   * one), then each caller expected to succeed gets a record of its own.
   */
  async function runDestructive(op: Operation): Promise<void> {
    const expected = expectedOutcomes(op.key);
    const make = world.fresh[op.key];
    const shared = make ? { ...world.ids, ...(await make()) } : world.ids;
    for (const caller of [...ORDER, 'agentWrite'] as CallerClass[]) {
      // (n/a: a row not written yet, printed with MATRIX_PRINT; each caller gets a record of its own.)
      if ((expected[caller] === 'allowed' || expected[caller] === 'n/a') && make) {
        observations.push(await observe(world, op, caller, { ...world.ids, ...(await make()) }));
      } else {
        observations.push(await observe(world, op, caller, shared));
      }
    }
  }

  function printObserved(): void {
    const letter: Record<Outcome | 'error', string> = {
      allowed: 'A',
      denied: 'D',
      hidden: 'H',
      unauthenticated: 'U',
      'n/a': '-',
      error: 'E',
    };
    for (const op of operations) {
      const seen = Object.fromEntries(observations.filter((o) => o.op.key === op.key).map((o) => [o.caller, o]));
      const row = COLUMNS.map((group) => group.map((caller) => (seen[caller] ? letter[seen[caller].outcome] : '?')).join('')).join(' ');
      const detail = CALLERS.map((caller) => `${caller}=${seen[caller]?.status}${seen[caller]?.code ? `:${seen[caller]!.code}` : ''}`).join(
        ' ',
      );
      process.stdout.write(`  '${op.key}': '${row}', // ${detail}\n`);
    }
  }

  it('has a row for every operation in /openapi.json, and no row for an operation that is gone', () => {
    const documented = operations.map((op) => op.key);
    expect(
      documented.filter((key) => MATRIX[key] === undefined),
      'new route without a row in tenancy-matrix.table.ts',
    ).to.deep.equal([]);
    expect(
      Object.keys(MATRIX).filter((key) => !documented.includes(key)),
      'rows for operations no longer served',
    ).to.deep.equal([]);
    for (const key of Object.keys(MATRIX)) expect(() => rowOf(key), key).not.to.throw();
  });

  it("never answers 2xx to the other organization's admin on organization A's records", () => {
    const leaks = observations.filter(
      (o) => o.caller === 'stranger' && o.op.path.includes('{') && o.status >= 200 && o.status < 300 && !PUBLIC_BY_DESIGN.has(o.op.key),
    );
    expect(leaks.map((o) => `${o.op.key} -> ${o.status}`)).to.deep.equal([]);
  });

  it('never answers 5xx', () => {
    expect(observations.filter((o) => o.outcome === 'error').map((o) => `${o.op.key} as ${o.caller} -> ${o.status}`)).to.deep.equal([]);
  });

  it('answers every caller class as the table states', () => {
    const mismatches: string[] = [];
    for (const o of observations) {
      const expected = expectedOutcomes(o.op.key)[o.caller];
      if (expected === 'n/a' || expected === o.outcome) continue;
      mismatches.push(`${o.op.key} as ${o.caller}: expected ${expected}, got ${o.status}${o.code ? ` ${o.code}` : ''}`);
    }
    expect(mismatches).to.deep.equal([]);
  });
});

/**
 * Operations whose path carries a capability rather than a tenant's id (a public status page's slug,
 * a heartbeat or feed token): anyone holding it is served, organization B's admin included.
 */
const PUBLIC_BY_DESIGN = new Set([
  'GET /api/heartbeats/{token}',
  'POST /api/heartbeats/{token}',
  'GET /api/public/status-pages/{slug}',
  'GET /status/{slug}',
  'GET /status/{slug}/index.json',
  'GET /status/{slug}/feed.atom',
  'GET /status/{slug}/badge.svg',
  'POST /status/{slug}/login',
  'POST /status/{slug}/subscribe',
  'GET /status/{slug}/confirm',
  'GET /status/{slug}/unsubscribe',
  'POST /status/{slug}/unsubscribe',
  'GET /api/im/calendar/{token}',
  'POST /api/im/ingest/{token}',
  'GET /api/invitations/accept/{token}',
  'POST /api/invitations/accept/{token}',
]);
