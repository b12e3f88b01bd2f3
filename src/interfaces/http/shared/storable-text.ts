import type { RequestHandler } from 'express';
import { ZodError } from 'zod';

/**
 * Text PostgreSQL cannot keep: NUL (refused in text and jsonb) and lone UTF-16 surrogates (refused
 * in jsonb, silently turned into U+FFFD on the way into text). No route has a use for either, so
 * they are refused at the edge, once for every route, as a validation failure.
 */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export type TextPath = Array<string | number>;

const reasonOf = (text: string): string =>
  text.includes('\u0000') ? 'Text must not contain NUL (U+0000)' : 'Text must be well-formed Unicode (no lone surrogate)';

/** Where a value sits: its key and its parent's place (a chain, so a deep walk does not copy paths). */
interface Place {
  readonly key: string | number;
  readonly parent: Place | null;
}

const pathOf = (place: Place | null): TextPath => {
  const path: TextPath = [];
  for (let at = place; at !== null; at = at.parent) path.push(at.key);
  return path.reverse();
};

/**
 * The first string (value or object key) in `root` that cannot be stored, with its path, or null.
 * Iterative (an explicit stack), so a deeply nested body cannot exhaust the call stack.
 */
export function findUnstorableText(root: unknown): { path: TextPath; message: string } | null {
  const stack: Array<{ value: unknown; place: Place | null }> = [{ value: root, place: null }];
  while (stack.length > 0) {
    const { value, place } = stack.pop()!;
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) return { path: pathOf(place), message: reasonOf(value) };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], place: { key: i, parent: place } });
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const at = { key, parent: place };
        if (UNSTORABLE.test(key)) return { path: pathOf(at), message: `${reasonOf(key)} (in a property name)` };
        stack.push({ value: (value as Record<string, unknown>)[key], place: at });
      }
    }
  }
  return null;
}

/** The refusal, shaped as a schema failure so the error handler answers 400 validationFailed with the issue. */
export function unstorableTextError(found: { path: TextPath; message: string }, where: string): ZodError {
  return new ZodError([{ code: 'custom', path: found.path, message: `${found.message} in the ${where}`, input: undefined }]);
}

/** Throws the refusal when `value` holds unstorable text (for bodies a handler reads itself). */
export function assertStorableText(value: unknown, where: string): void {
  const found = findUnstorableText(value);
  if (found) throw unstorableTextError(found, where);
}

/**
 * The URL: the path (decoded per segment, as routes see their parameters) and the query string.
 * Mounted before anything reads the URL, status page views included. A URL can carry NUL only
 * percent-encoded, so a URL without `%00` is passed at once.
 */
export const storableUrlText: RequestHandler = (req, _res, next) => {
  if (!/%00/.test(req.url)) return next();
  try {
    const query = req.url.indexOf('?');
    const rawPath = query >= 0 ? req.url.slice(0, query) : req.url;
    if (/%00/.test(rawPath)) throw unstorableTextError({ path: [], message: 'Text must not contain NUL (%00)' }, 'path');
    assertStorableText(req.query, 'query string');
    next();
  } catch (error) {
    next(error);
  }
};

/** Parsed bodies (JSON and form), once the host's body parsers have run. */
export const storableBodyText: RequestHandler = (req, _res, next) => {
  try {
    if (req.body !== undefined) assertStorableText(req.body, 'request body');
    next();
  } catch (error) {
    next(error);
  }
};
