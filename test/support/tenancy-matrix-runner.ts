import type { ApiResponse } from './http-client';
import { agentApi } from './agent-http';
import type { CallerClass, MatrixWorld } from './tenancy-matrix-world';

/** What a caller class gets from an operation, as the matrix table states it. */
export type Outcome = 'allowed' | 'denied' | 'hidden' | 'unauthenticated' | 'n/a';

export interface Operation {
  method: string;
  /** OpenAPI form: /api/websites/{id}. */
  path: string;
  /** `GET /api/websites/{id}`: the table's key. */
  key: string;
}

export interface Observation {
  op: Operation;
  caller: CallerClass;
  status: number;
  code: string | undefined;
  outcome: Outcome | 'error';
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation the running service documents at /openapi.json. */
export async function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): Promise<Operation[]> {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of Object.keys(item).filter((m) => METHODS.includes(m))) {
      const upper = method.toUpperCase();
      operations.push({ method: upper, path, key: `${upper} ${path}` });
    }
  }
  return operations;
}

/**
 * The world's key for a path parameter: `{id}` and `{token}` are named by the literal segments
 * before them (`/api/monitors/dns/{id}` -> `monitors/dns`), any other parameter by its own name.
 */
export function paramKeys(path: string): Array<{ name: string; key: string }> {
  const keys: Array<{ name: string; key: string }> = [];
  let literals: string[] = [];
  for (const segment of path.split('/').filter(Boolean)) {
    const param = /^\{(\w+)\}$/.exec(segment);
    if (!param) {
      literals.push(segment);
      continue;
    }
    const name = param[1]!;
    const key = name === 'id' || name === 'token' ? literals.filter((s) => s !== 'api').join('/') : name;
    keys.push({ name, key });
    literals = [];
  }
  return keys;
}

export function fillPath(path: string, values: Record<string, string>): string {
  let filled = path;
  for (const { name, key } of paramKeys(path)) {
    const value = values[key];
    if (value === undefined) throw new Error(`tenancy matrix: no record for {${name}} (key "${key}") of ${path}`);
    filled = filled.replace(`{${name}}`, encodeURIComponent(value));
  }
  return filled;
}

/**
 * A response as an outcome class: 401, 403 and 404 are the access answers, and so is any not-found
 * code (the spec lets statusPageNotFound answer 400 for another tenant's page); 2xx and every other
 * 4xx (validation, conflict, rate limit) mean the caller got past the access decisions; 5xx is an error.
 */
export function classify(status: number, code?: string): Outcome | 'error' {
  if (status >= 500) return 'error';
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'denied';
  if (status === 404 || (code !== undefined && /NotFound$/.test(code))) return 'hidden';
  return 'allowed';
}

/**
 * One request as `caller`, on the canonical host (agent endpoints answer only there) and from a
 * client address of its own (so per-address rate limits of one caller do not spill onto the next).
 */
export async function observe(
  world: MatrixWorld,
  op: Operation,
  caller: CallerClass,
  params: Record<string, string> = world.ids,
): Promise<Observation> {
  const sample = world.samples[op.key] ?? {};
  const query = sample.query ? `?${new URLSearchParams(sample.query)}` : '';
  const json = sample.body ?? (sample.form || sample.raw || op.method === 'GET' || op.method === 'DELETE' ? undefined : {});
  const response: ApiResponse = await agentApi(op.method, `${fillPath(op.path, params)}${query}`, {
    token: world.tokens[caller],
    json,
    form: sample.form,
    raw: sample.raw?.text,
    contentType: sample.raw?.contentType,
  });
  const code = typeof response.body === 'object' && response.body ? response.body.data?.code : undefined;
  return { op, caller, status: response.status, code, outcome: classify(response.status, code) };
}

/** Runs `work` over `items` with at most `limit` in flight. */
export async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}
