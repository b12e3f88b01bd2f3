import { expect } from 'chai';
import fc from 'fast-check';
import { ZodError } from 'zod';
import { evidenceFits, resultToWire, WIRE_LIMITS } from '../../../../src/application/probes/wire';
import { checkResult, down, degraded } from '../../../../src/domain/checks/check-result';
import { compactBatch, readResultsBody, ResultsBody } from '../../../../src/interfaces/http/probes/probe-results.body';

const STATUS = { monitorsHeld: 10, checksPerSecond: 2.5, lagMs: 40, buffered: 0, dropped: 0 };
const WORKER = 'probe:0b6c6d4e-1f7e-4a55-9d1c-2f1b6a1c9e11:3';
const AT = 1_764_070_000_000;

/** Numbers no probe sends: beyond every bound, and out of Date's and PostgreSQL's range. */
const EXTREME_NUMBERS = [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 8.64e15, -8.64e15, 2 ** 31, 1e308, -1e308];

/** An object nested `depth` levels deep (built without recursion, so 100,000 levels are fine). */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

/** Evidence beyond its bounds: too deep (just over, and far over), and too large (one huge string, many keys). */
const HOSTILE_EVIDENCE = [
  nested(WIRE_LIMITS.maxEvidenceDepth + 1),
  nested(100_000),
  { body: 'x'.repeat(1_000_000) },
  Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])),
];

const anHttpResult = (findings = [degraded('responseTooSlow', 'slow'), down('unexpectedStatus', 'got 500')]) =>
  checkResult({
    kind: 'http',
    findings,
    timings: { dnsMs: 0.1, connectMs: 0.4, tlsMs: null, firstByteMs: 1.2, totalMs: 1.9 },
    evidence: { http: { status: 500, headers: {}, finalUrl: 'http://t.example/', redirects: [], bodyBytes: 2 } },
    checkedAt: new Date(AT + 3),
  });

describe('reading a batch of probe results', () => {
  it('reads back what the probe wrote: findings worst first, status and reason derived, times as dates', () => {
    const sent = resultToWire(4, WORKER, 77, new Date(AT), new Date(AT + 1), anHttpResult());
    const { results, status } = readResultsBody(JSON.parse(JSON.stringify({ status: STATUS, results: [sent] })));
    expect(status).to.deep.equal(STATUS);
    expect(results).to.have.length(1);
    const [read] = results;
    expect(read).to.include({ seq: 4, worker: WORKER, monitorId: 77, slot: AT, startedAt: AT + 1 });
    expect(read!.result).to.deep.equal(anHttpResult());
    expect(read!.result.status).to.equal('down');
    expect(read!.result.reason).to.deep.equal(down('unexpectedStatus', 'got 500'));
  });

  it('reads an up result without findings as up', () => {
    const sent = resultToWire(1, WORKER, 5, new Date(AT), new Date(AT), anHttpResult([]));
    expect(sent[12]).to.equal(null);
    const [read] = readResultsBody({ status: STATUS, results: [sent] }).results;
    expect(read!.result.status).to.equal('up');
    expect(read!.result.reason).to.equal(null);
  });

  it('still reads the object form earlier probes buffered (a reason without findings keeps its reason)', () => {
    const legacy = {
      seq: 9,
      worker: WORKER,
      monitorId: 5,
      slot: AT,
      startedAt: AT,
      result: {
        kind: 'tcp',
        status: 'down',
        reason: { status: 'down', code: 'connectionRefused', message: 'refused' },
        findings: [],
        timings: { dnsMs: null, connectMs: null, tlsMs: null, firstByteMs: null, totalMs: 0.5 },
        evidence: {},
        checkedAt: AT + 2,
      },
    };
    expect(compactBatch({ status: STATUS, results: [legacy] }), 'not the fast form').to.equal(null);
    const [read] = readResultsBody({ status: STATUS, results: [legacy] }).results;
    expect(read!.result).to.deep.include({ kind: 'tcp', status: 'down', reason: down('connectionRefused', 'refused') });
    expect(read!.result.checkedAt).to.deep.equal(new Date(AT + 2));
  });

  it('names the offending field of a malformed result through the schema', () => {
    const sent = [...resultToWire(1, WORKER, 5, new Date(AT), new Date(AT), anHttpResult([]))];
    sent[2] = -5;
    let error: unknown;
    try {
      readResultsBody({ status: STATUS, results: [sent] });
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(ZodError);
    expect((error as ZodError).issues.map((i) => i.path.join('.'))).to.include('results.0.2');
  });

  it('refuses a batch over the limit and a status with a negative count', () => {
    const one = resultToWire(1, WORKER, 5, new Date(AT), new Date(AT), anHttpResult([]));
    expect(() => readResultsBody({ status: STATUS, results: Array.from({ length: 5_001 }, () => one) })).to.throw(ZodError);
    expect(() => readResultsBody({ status: { ...STATUS, buffered: -1 }, results: [one] })).to.throw(ZodError);
  });

  it('bounds evidence at 8 levels and 64 Ki characters, refusing 100,000 levels without recursing', () => {
    expect(evidenceFits(nested(WIRE_LIMITS.maxEvidenceDepth))).to.equal(true);
    expect(evidenceFits(nested(WIRE_LIMITS.maxEvidenceDepth + 1))).to.equal(false);
    expect(evidenceFits(nested(100_000))).to.equal(false);
    expect(evidenceFits({ body: 'x'.repeat(60_000) })).to.equal(true);
    expect(evidenceFits({ body: 'x'.repeat(WIRE_LIMITS.maxEvidenceChars) })).to.equal(false);
    expect(evidenceFits({ list: Array.from({ length: 20_000 }, (_, i) => i) })).to.equal(false);
    expect(evidenceFits([])).to.equal(false);
    expect(evidenceFits(null)).to.equal(false);
  });

  it('names the field of a date, a count or evidence beyond its bound', () => {
    const at = (index: number, value: unknown) => {
      const sent: unknown[] = [...resultToWire(1, WORKER, 5, new Date(AT), new Date(AT), anHttpResult([]))];
      sent[index] = value;
      return sent;
    };
    const pathsOf = (body: unknown) => {
      const parsed = ResultsBody.safeParse(body);
      expect(compactBatch(body), 'the fast reader refuses it too').to.equal(null);
      return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join('.'));
    };
    for (const extreme of [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 8.64e15]) {
      expect(pathsOf({ status: STATUS, results: [at(5, extreme)] })).to.include('results.0.5');
    }
    expect(pathsOf({ status: STATUS, results: [at(13, nested(10_000))] })).to.include('results.0.13');
    expect(pathsOf({ status: STATUS, results: [at(13, { body: 'x'.repeat(1_000_000) })] })).to.include('results.0.13');
    expect(pathsOf({ status: { ...STATUS, monitorsHeld: 2 ** 31 }, results: [] })).to.deep.equal(['status.monitorsHeld']);
    expect(pathsOf({ status: { ...STATUS, buffered: Number.MAX_SAFE_INTEGER }, results: [] })).to.deep.equal(['status.buffered']);
    expect(pathsOf({ status: { ...STATUS, checksPerSecond: 1e308 }, results: [] })).to.deep.equal(['status.checksPerSecond']);
  });

  it('accepts fast only what the schema accepts, and reads it alike (property)', () => {
    // Each field mostly valid, sometimes just outside what it may be: batches both sides of the line.
    const mostly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) =>
      fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: invalid });
    const ms = mostly(fc.oneof(fc.double({ min: 0, max: 3_600_000, noNaN: true }), fc.constant(null)), fc.constantFrom(-1, 3_600_001, '1'));
    const text = (max: number) =>
      mostly(fc.string({ maxLength: max }), fc.oneof(fc.string({ minLength: max + 1, maxLength: max + 2 }), fc.constant(7)));
    const finding = mostly(
      fc.tuple(fc.constantFrom('down', 'degraded'), text(64), text(2_000)),
      fc.constantFrom(['up', 'x', 'y'], ['down', 'x']),
    );
    const epoch = mostly(
      fc.integer({ min: WIRE_LIMITS.minEpochMs, max: WIRE_LIMITS.maxEpochMs }),
      fc.constantFrom(0.5, '1', ...EXTREME_NUMBERS),
    );
    const result = fc.tuple(
      mostly(fc.integer({ min: 1, max: 1e9 }), fc.constantFrom(0, -1, 1.5)),
      text(120),
      mostly(fc.integer({ min: 1, max: 1e9 }), fc.constantFrom(0, '7')),
      epoch,
      epoch,
      epoch,
      text(40),
      mostly(fc.double({ min: 0, max: 3_600_000, noNaN: true }), fc.constantFrom(null, -0.5)),
      ms,
      ms,
      ms,
      ms,
      mostly(fc.oneof(fc.constant(null), fc.array(finding, { maxLength: 3 })), fc.constantFrom('none', Array(51).fill(['down', 'a', 'b']))),
      mostly(fc.constantFrom({}, { a: [1] }, { target: { host: 'h' } }, nested(7)), fc.constantFrom([], null, 'x', ...HOSTILE_EVIDENCE)),
    );
    const item = mostly(
      result,
      result.map((r) => r.slice(0, 13)),
    );
    let accepted = 0;
    let refused = 0;
    const count = (max: number) => mostly(fc.integer({ min: 0, max }), fc.constantFrom(-1, max + 1, ...EXTREME_NUMBERS));
    const status = mostly(
      fc.constant(STATUS),
      fc.record({
        monitorsHeld: count(WIRE_LIMITS.maxCount),
        checksPerSecond: mostly(fc.double({ min: 0, max: WIRE_LIMITS.maxChecksPerSecond, noNaN: true }), fc.constantFrom(1e308, -0.5)),
        lagMs: count(Number.MAX_SAFE_INTEGER),
        buffered: count(WIRE_LIMITS.maxCount),
        dropped: count(Number.MAX_SAFE_INTEGER),
      }),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 4 }), status, (results, status) => {
        const body = { status, results };
        const fast = compactBatch(body);
        const schema = ResultsBody.safeParse(body);
        // What the service reads: the batch, or a ZodError naming the field (never another error: that would be a 500).
        try {
          readResultsBody(body);
        } catch (error) {
          expect(error).to.be.instanceOf(ZodError);
        }
        if (schema.success && results.length > 0) accepted += 1;
        else refused += 1;
        if (fast) {
          expect(schema.success, 'the schema accepts what the fast check accepts').to.equal(true);
          expect(fast.results as unknown).to.deep.equal(schema.data!.results);
        }
        if (schema.success && results.every((r) => Array.isArray(r)))
          expect(fast, 'the fast check accepts every compact batch the schema does').to.not.equal(null);
      }),
      { numRuns: 2_000 },
    );
    expect(accepted, 'non-empty batches the schema accepted').to.be.greaterThan(50);
    expect(refused, 'batches it refused').to.be.greaterThan(200);
  });
});
