/**
 * The JSON path subset chains use: `$` followed by `.name`, `['name']` / `["name"]` and `[index]`
 * (a negative index counts from the end). No filters, wildcards or recursive descent: a chain reads
 * one value it names, and a subset this small is easier to keep exact than a library's dialect.
 */
export type JsonPathSegment = string | number;

export type JsonPathParse = { readonly ok: true; readonly segments: JsonPathSegment[] } | { readonly ok: false; readonly message: string };

const NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*/;
const INDEX = /^\[(-?\d{1,9})\]/;
const QUOTED = /^\[(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\]/;
export const MAX_JSON_PATH_LENGTH = 500;

export function parseJsonPath(path: string): JsonPathParse {
  if (path.length > MAX_JSON_PATH_LENGTH) return { ok: false, message: `at most ${MAX_JSON_PATH_LENGTH} characters` };
  if (!path.startsWith('$')) return { ok: false, message: 'a JSON path starts with $' };
  const segments: JsonPathSegment[] = [];
  let rest = path.slice(1);
  while (rest.length > 0) {
    if (rest.startsWith('.')) {
      const name = NAME.exec(rest.slice(1));
      if (!name) return { ok: false, message: `expected a property name after "." at "${rest}"` };
      segments.push(name[0]);
      rest = rest.slice(1 + name[0].length);
      continue;
    }
    const index = INDEX.exec(rest);
    if (index) {
      segments.push(Number(index[1]));
      rest = rest.slice(index[0].length);
      continue;
    }
    const quoted = QUOTED.exec(rest);
    if (quoted) {
      segments.push((quoted[1] ?? quoted[2]!).replace(/\\(.)/g, '$1'));
      rest = rest.slice(quoted[0].length);
      continue;
    }
    return { ok: false, message: `unexpected "${rest.slice(0, 20)}" (supported: $, .name, ['name'], [index])` };
  }
  return { ok: true, segments };
}

/** The value at `segments`, or `undefined` when any step of the path is missing. */
export function readJsonPath(document: unknown, segments: readonly JsonPathSegment[]): unknown {
  let current: unknown = document;
  for (const segment of segments) {
    if (typeof segment === 'number') {
      if (!Array.isArray(current)) return undefined;
      const at = segment < 0 ? current.length + segment : segment;
      current = current[at];
    } else {
      if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
      if (!Object.hasOwn(current, segment)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    }
    if (current === undefined) return undefined;
  }
  return current;
}
