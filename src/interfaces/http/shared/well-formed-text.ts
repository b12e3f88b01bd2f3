import { ZodError } from 'zod';

const MESSAGE = 'Text must be well-formed Unicode (a lone surrogate)';
/** A high surrogate not followed by a low one, or a low one not preceded by a high one (code units: no `u` flag). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const wellFormed = (text: string) => !LONE_SURROGATE.test(text);

/**
 * The path of the first string (value or key) in a parsed JSON body that is not well-formed
 * Unicode: a lone surrogate, valid in JSON's escapes but no text. PostgreSQL refuses it in jsonb
 * and text columns replace it with U+FFFD. Iterative, so a deeply nested body cannot overflow the stack.
 */
export function lonelySurrogatePath(body: unknown): string[] | null {
  const stack: Array<{ value: unknown; path: string[] }> = [{ value: body, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (!wellFormed(value)) return path;
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push({ value: item, path: [...path, String(index)] }));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (!wellFormed(key)) return [...path, key];
        stack.push({ value: item, path: [...path, key] });
      }
    }
  }
  return null;
}

/** Throws the 400 validationFailed the error handler renders, naming where the lone surrogate is. */
export function assertWellFormedText(body: unknown): void {
  const path = lonelySurrogatePath(body);
  if (path) throw new ZodError([{ code: 'invalid_format', format: 'well-formed', path, message: MESSAGE, input: undefined } as never]);
}
