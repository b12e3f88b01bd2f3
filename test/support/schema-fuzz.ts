import fc from 'fast-check';

/**
 * Request generators for fuzzing the service from its own /openapi.json: values shaped by each
 * operation's schemas (so requests get past the first field and reach the code behind it), mixed
 * with hostile values at every level (NUL, lone surrogates, a 1 MB string, numbers at the edges,
 * prototype keys, values of the wrong type, 10,000 levels of nesting).
 */

type Schema = Record<string, any>;
export interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface FuzzRequest {
  method: string;
  /** Path with its parameters filled in and percent-encoded (the raw bytes sent). */
  path: string;
  /** Query string without `?`, encoded, or empty. */
  query: string;
  /** The body as sent (JSON text, or raw hostile text), if any. */
  body?: string;
  anonymous: boolean;
}

/** A megabyte of text: at the JSON body limit (1 MB), so both sides of it are tried. */
const MEGABYTE = 'x'.repeat(1024 * 1024 - 64);
/** 10,000 levels of nesting, as JSON text (JSON.stringify of such a value would itself recurse that deep). */
export const DEEP_ARRAYS = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
export const DEEP_OBJECTS = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;

export const HOSTILE_STRINGS = [
  'ab\u0000cd',
  '\u0000',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '\u202eevil',
  '\ufeff',
  '',
  ' ',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '9007199254740993',
  '__proto__',
  'constructor',
  'prototype',
  "'; DROP TABLE users; --",
  '../../etc/passwd',
  '%00',
  '%',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '${7*7}',
  'null',
  'true',
  '[]',
  '{}',
];
export const EDGE_NUMBERS = [-0, 1e308, -1e308, 2 ** 53 + 1, -(2 ** 53 + 1), 2 ** 31, -(2 ** 31) - 1, 2 ** 63, 5e-324, 0.1, -1, 0];

/** Objects whose own keys try prototype pollution (built by JSON.parse, so `__proto__` is an own key and survives stringify). */
const PROTOTYPE_KEYS = [
  '{"__proto__":{"polluted":true,"isAdmin":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"prototype":{"polluted":true}}',
  '{"__proto__":null}',
  '{"toString":"x","valueOf":1,"hasOwnProperty":null}',
].map((text) => JSON.parse(text) as unknown);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 4, arbitrary: fc.constantFrom(...EDGE_NUMBERS) },
  { weight: 3, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], [[[]]]) },
  { weight: 1, arbitrary: fc.constant(MEGABYTE) },
);

const MAX_DEPTH = 4;

export class SchemaArbitraries {
  constructor(private readonly document: OpenApiDocument) {}

  private resolve(schema: Schema | undefined): Schema {
    let current = schema ?? {};
    for (let hops = 0; current.$ref && hops < 20; hops++) {
      current = this.document.components?.schemas?.[String(current.$ref).split('/').pop()!] ?? {};
    }
    return current;
  }

  /** Values the schema describes, with a hostile value instead at any level one time in six. */
  value(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
    const shaped = this.shaped(this.resolve(schema), depth);
    return fc.oneof({ weight: 5, arbitrary: shaped }, { weight: 1, arbitrary: hostileValue });
  }

  private shaped(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(alternatives) && alternatives.length > 0)
      return fc.oneof(...alternatives.map((s: Schema) => this.shaped(this.resolve(s), depth)));
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return this.shaped(this.resolve(schema.allOf[0]), depth);
    if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type: string) => this.shaped({ ...schema, type }, depth)));
    const type = schema.type ?? (schema.properties ? 'object' : undefined);
    switch (type) {
      case 'string':
        return this.string(schema);
      case 'integer': {
        // Unbounded integers within 32 bits; a schema's own bounds as they are (epoch milliseconds lie beyond 2^31).
        const min = Math.max(schema.minimum ?? -1000, schema.minimum === undefined ? -(2 ** 31) : Number.MIN_SAFE_INTEGER);
        const max = Math.min(
          schema.maximum ?? Math.max(min, 0) + 100_000,
          schema.maximum === undefined ? 2 ** 31 : Number.MAX_SAFE_INTEGER,
        );
        return fc.integer({ min, max });
      }
      case 'number':
        return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        if (depth >= MAX_DEPTH) return fc.constant([]);
        return fc.array(this.value(schema.items, depth + 1), { maxLength: Math.min(schema.maxItems ?? 3, 3) });
      case 'object':
        return this.object(schema, depth);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  private string(schema: Schema): fc.Arbitrary<unknown> {
    switch (schema.format) {
      case 'email':
        return fc.emailAddress();
      case 'uuid':
        return fc.uuid();
      case 'date-time':
        return fc
          .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
          .map((d) => d.toISOString());
      case 'date':
        return fc
          .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10));
      case 'uri':
        return fc.webUrl();
      case 'ipv4':
        return fc.ipV4();
      case 'ipv6':
        return fc.ipV6();
      default:
        return fc.string({
          minLength: Math.min(schema.minLength ?? 0, 40),
          maxLength: Math.max(Math.min(schema.maxLength ?? 40, 40), Math.min(schema.minLength ?? 0, 40)),
        });
    }
  }

  private object(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    if (depth >= MAX_DEPTH) return fc.constant({});
    const properties: Record<string, Schema> = schema.properties ?? {};
    const required = new Set<string>(schema.required ?? []);
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [name, property] of Object.entries(properties)) model[name] = this.value(property, depth + 1);
    const known = fc.record(model, { requiredKeys: Object.keys(properties).filter((name) => required.has(name)) });
    // Now and then a key the schema does not name (strict schemas refuse it).
    return fc
      .tuple(
        known,
        fc.option(fc.tuple(fc.constantFrom('extra', '__proto__', 'constructor', 'id', 'organizationId'), hostileValue), { freq: 6 }),
      )
      .map(([record, extra]) => {
        if (!extra) return record;
        // defineProperty makes even `__proto__` an own, serialised key (an assignment would set the prototype).
        const withExtra = { ...(record as object) };
        Object.defineProperty(withExtra, extra[0], { value: extra[1], enumerable: true, writable: true, configurable: true });
        return withExtra;
      });
  }
}

/** Percent-encodes every byte of the UTF-8 form (lone surrogates, which encodeURIComponent refuses, become U+FFFD). */
export const encodeSegment = (value: string): string =>
  [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** Path segments a client could send raw: malformed percent-escapes and bytes that are not UTF-8. */
const RAW_SEGMENTS = ['%', '%zz', '%ED%A0%80', '%FF%FE', '%C0%AF', '%00', '%2e%2e', 'a%2Fb', '..', '%252F'];

/**
 * One operation's requests: its path parameters (a real id of organization A, or a hostile
 * segment), its query parameters (shaped or hostile, as strings), its JSON body (shaped, hostile,
 * or hostile text), as organization A's admin or, one time in five, anonymously.
 */
export function requestsFor(
  schemas: SchemaArbitraries,
  method: string,
  path: string,
  operation: Record<string, any>,
  realIds: (name: string) => string | undefined,
): fc.Arbitrary<FuzzRequest> {
  const parameters: Array<Record<string, any>> = operation.parameters ?? [];
  const pathParams = parameters.filter((p) => p.in === 'path');
  const queryParams = parameters.filter((p) => p.in === 'query');

  const segments: Record<string, fc.Arbitrary<string>> = {};
  for (const param of pathParams) {
    const real = realIds(param.name);
    segments[param.name] = fc.oneof(
      { weight: 4, arbitrary: real === undefined ? fc.constant('1') : fc.constant(encodeSegment(real)) },
      {
        weight: 2,
        arbitrary: schemas.value(param.schema).map((v) => encodeSegment(typeof v === 'string' ? v : (JSON.stringify(v) ?? 'null'))),
      },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    );
  }
  const queries = queryParams.map((param) =>
    fc.option(
      fc
        .oneof(schemas.value(param.schema), hostileValue)
        .map((v) => `${encodeSegment(param.name)}=${encodeSegment(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`),
      { freq: 3 },
    ),
  );
  const extraQuery = fc.option(
    fc.constantFrom('__proto__[x]=1', 'constructor[prototype][x]=1', 'page=-1', 'perPage=1e9', 'x=%zz', 'a=%00', `q=${'y'.repeat(20_000)}`),
    { freq: 5 },
  );

  const jsonSchema = operation.requestBody?.content?.['application/json']?.schema;
  const body: fc.Arbitrary<string | undefined> =
    jsonSchema === undefined && method === 'GET'
      ? fc.constant(undefined)
      : fc.oneof(
          { weight: 8, arbitrary: schemas.value(jsonSchema).map((v) => JSON.stringify(v) ?? 'null') },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              DEEP_ARRAYS,
              DEEP_OBJECTS,
              '{"a":',
              'NaN',
              '\u0000',
              '{"a":1,"a":2}',
              '"\\ud800"',
              '1e99999',
              '[' + '1,'.repeat(50_000) + '1]',
            ),
          },
          { weight: 1, arbitrary: fc.constant(undefined) },
        );

  return fc
    .record({
      segments: fc.record(segments),
      queries: fc.tuple(...queries, extraQuery),
      body,
      anonymous: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    })
    .map(({ segments: values, queries: parts, body: text, anonymous }) => ({
      method,
      path: path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '1'),
      query: parts.filter((part): part is string => typeof part === 'string').join('&'),
      body: text,
      anonymous,
    }));
}

/** The error envelope exactly: these keys and no others, with their types; data optional, its code a string when present. */
export function envelopeProblem(status: number, text: string): string | null {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 120)}`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'not an object';
  const keys = Object.keys(body).sort().join(',');
  if (keys !== 'data,error,message,statusCode,statusMessage,url' && keys !== 'error,message,statusCode,statusMessage,url')
    return `keys ${keys}`;
  if (body.error !== true) return 'error is not true';
  if (body.statusCode !== status) return `statusCode ${body.statusCode} for ${status}`;
  if (typeof body.url !== 'string' || typeof body.message !== 'string') return 'url or message not a string';
  if (typeof body.statusMessage !== 'string' || body.statusMessage === '') return 'statusMessage empty';
  if ('data' in body) {
    if (typeof body.data !== 'object' || body.data === null || Array.isArray(body.data)) return 'data not an object';
    if ('code' in body.data && typeof body.data.code !== 'string') return 'data.code not a string';
  }
  return null;
}
