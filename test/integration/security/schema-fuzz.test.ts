import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { api } from '../../support/http-client';
import { testServer } from '../../support/test-server';
import { anOrganization } from '../../support/builders';
import { aProbeSite, probeCall } from '../../support/probe-api';
import { buildWorld, type MatrixWorld } from '../../support/tenancy-matrix-world';
import { paramKeys } from '../../support/tenancy-matrix-runner';
import { envelopeProblem, requestsFor, SchemaArbitraries, type OpenApiDocument } from '../../support/schema-fuzz';

/**
 * Property-based fuzzing of every operation in /openapi.json against the running service (the
 * embedded PostgreSQL, real HTTP): requests shaped by the operation's own schemas with hostile
 * values at any level, as organization A's admin and sometimes anonymously. Properties: no 5xx,
 * every non-2xx answer exactly the error envelope, and the process's memory bounded.
 *
 * Seeded: FUZZ_SEED (default below) and FUZZ_RUNS (runs per operation) reproduce or widen a run;
 * a failure prints the seed and the shrunk request.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 28_2026);
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
/** Growth of the process's resident memory over the whole fuzz (the service runs in this process). */
const RSS_BOUND_BYTES = 384 * 1024 * 1024;

/**
 * Pages for people, not API clients: their refusals are HTML pages (a browser shows them), so the
 * envelope is not asked of them; they must still be 4xx and HTML. (The OpenAPI document lists the
 * envelope for them: reported, for the lead to settle.)
 */
const HTML_PAGES = new Set(['GET /status/{slug}']);

/** Operations that would end the session the fuzz runs with, or its organization's access: left to their own tests. */
const NOT_FUZZED = new Set([
  'POST /api/auth/sign-out',
  'POST /api/account/deletion-request',
  'DELETE /api/oauth/connections',
  'DELETE /api/oauth/connections/{clientId}',
  'PATCH /api/organization',
  'POST /api/auth/two-factor/enable',
  'PATCH /api/platform-admin/organizations/{id}',
  'PATCH /api/platform-admin/settings',
]);

describe('security: schema fuzzing of every operation in /openapi.json', function () {
  this.timeout(300_000);
  let world: MatrixWorld;
  let document: OpenApiDocument;

  before(async function () {
    this.timeout(120_000);
    world = await buildWorld();
    document = (await api('GET', '/openapi.json')).body;
  });

  it('answers no 5xx and only the error envelope, with memory bounded', async () => {
    const { url } = await testServer();
    const schemas = new SchemaArbitraries(document);
    const failures: string[] = [];
    const rssBefore = process.memoryUsage().rss;
    let requests = 0;

    const operations = Object.entries(document.paths)
      .flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
          .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation: operation as Record<string, any> })),
      )
      .filter((op) => !NOT_FUZZED.has(`${op.method} ${op.path}`))
      // Writes that remove or rename records last, so they do not starve the rest of real ids.
      .sort((a, b) => rank(a.method) - rank(b.method));

    for (const { method, path, operation } of operations) {
      const keys = new Map(paramKeys(path).map(({ name, key }) => [name, key]));
      const arbitrary = requestsFor(schemas, method, path, operation, (name) => world.ids[keys.get(name) ?? name]);
      const property = fc.asyncProperty(arbitrary, async (request) => {
        requests++;
        const headers: Record<string, string> = {};
        if (!request.anonymous) headers.authorization = `Bearer ${world.tokens.admin}`;
        if (request.body !== undefined) headers['content-type'] = 'application/json';
        const response = await fetch(`${url}${request.path}${request.query ? `?${request.query}` : ''}`, {
          method: request.method,
          headers,
          body: request.body,
          redirect: 'manual',
        });
        // An admitted event stream (GET /api/events) does not end: its opening is the answer.
        if (response.ok && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
          await response.body?.cancel();
          return;
        }
        const text = await response.text();
        if (response.status >= 500) throw new Error(`${response.status} ${text.slice(0, 200)}`);
        if (
          response.status >= 400 &&
          HTML_PAGES.has(`${method} ${path}`) &&
          (response.headers.get('content-type') ?? '').startsWith('text/html')
        )
          return;
        if (response.status >= 400) {
          const problem = envelopeProblem(response.status, text);
          if (problem) throw new Error(`${response.status} is not the error envelope (${problem})`);
        }
      });
      const outcome = await fc.check(property, { seed: SEED, numRuns: RUNS, endOnFailure: true });
      if (outcome.failed) {
        const shown = JSON.stringify(outcome.counterexample?.[0], (_k, v) =>
          typeof v === 'string' && v.length > 300 ? `${v.slice(0, 300)}...(${v.length})` : v,
        );
        failures.push(
          `${method} ${path}: ${String((outcome.errorInstance as Error | undefined)?.message ?? outcome.errorInstance)} ; seed ${outcome.seed}, path "${outcome.counterexamplePath}" ; ${shown}`,
        );
      }
    }

    const growth = process.memoryUsage().rss - rssBefore;
    process.stdout.write(
      `      fuzz: ${operations.length} operations, ${requests} requests, seed ${SEED}, ${RUNS} runs each; ` +
        `RSS ${Math.round(rssBefore / 2 ** 20)} -> ${Math.round((rssBefore + growth) / 2 ** 20)} MiB\n`,
    );
    for (const failure of failures) process.stdout.write(`      ${failure}\n`);
    expect(
      failures.length,
      `${failures.length} operation(s) failed (listed above); FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} reproduces`,
    ).to.equal(0);
    expect(growth, 'resident memory growth over the fuzz').to.be.below(RSS_BOUND_BYTES);
  });
});

/**
 * The probe API with a probe key and a process said hello (with a user's credential every probe
 * route is refused before its body is read, so the fuzz above never reaches its readers): every
 * probe body the document describes, shaped by its schema with hostile values anywhere. A wait
 * call is held at most 50 ms, so the fuzz does not sit in it.
 */
describe('security: schema fuzzing of the probe API, as a probe', function () {
  this.timeout(300_000);

  it('answers no 5xx and only the error envelope to any body a probe key sends', async () => {
    const { url } = await testServer();
    const document: OpenApiDocument = (await api('GET', '/openapi.json')).body;
    const owner = await anOrganization('probe-fuzz');
    const site = await aProbeSite(owner.token, 'fuzz');
    const instance = randomUUID();
    expect((await probeCall(site.key, instance, '/hello', {})).status).to.equal(200);
    const schemas = new SchemaArbitraries(document);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const operations = Object.entries(document.paths).filter(([path]) => path.startsWith('/api/probe/'));
    expect(operations.length).to.be.greaterThan(10);
    for (const [path, item] of operations) {
      const operation = (item as Record<string, Record<string, any>>).post!;
      const property = fc.asyncProperty(
        requestsFor(schemas, 'POST', path, operation, () => undefined),
        async (request) => {
          const body = path.endsWith('/wait') ? shortWait(request.body) : request.body;
          const response = await fetch(`${url}${request.path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${site.key}`, 'x-probe-instance': instance, 'content-type': 'application/json' },
            body,
          });
          const text = await response.text();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status >= 500) throw new Error(`${response.status} ${text.slice(0, 200)}`);
          if (response.status >= 400) {
            const problem = envelopeProblem(response.status, text);
            if (problem) throw new Error(`${response.status} is not the error envelope (${problem})`);
          }
        },
      );
      const outcome = await fc.check(property, { seed: SEED, numRuns: RUNS * 2, endOnFailure: true });
      if (outcome.failed) {
        failures.push(`POST ${path}: ${String((outcome.errorInstance as Error | undefined)?.message)} ; seed ${outcome.seed}`);
      }
    }
    process.stdout.write(`      probe fuzz: ${operations.length} operations, answers ${JSON.stringify(Object.fromEntries(statuses))}\n`);
    for (const failure of failures) process.stdout.write(`      ${failure}\n`);
    expect(failures).to.deep.equal([]);
    expect(statuses.get(200) ?? 0, 'some bodies were well-formed and served').to.be.greaterThan(0);
  });
});

/** A wait body whose timeout is missing (20 s by default) or a number, cut to 50 ms; any other body as sent. */
function shortWait(body: string | undefined): string | undefined {
  let parsed: unknown;
  try {
    parsed = body === undefined || body === '' ? {} : JSON.parse(body); // no body: the defaults
  } catch {
    return body;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return body;
  const { timeoutMs } = parsed as { timeoutMs?: unknown };
  if (timeoutMs !== undefined && typeof timeoutMs !== 'number') return body;
  try {
    return JSON.stringify({ ...parsed, timeoutMs: Math.min(50, Math.max(0, timeoutMs ?? 50)) });
  } catch {
    return body; // nested too deep to write again: the service refuses it as it is
  }
}

const rank = (method: string) => (({ GET: 0, POST: 1, PUT: 1, PATCH: 2, DELETE: 3 }) as Record<string, number>)[method] ?? 1;
