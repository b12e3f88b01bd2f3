/** One argument of a scenario line: a bare word, or a double-quoted string with its escapes undone. */
export interface ScenarioArgument {
  readonly value: string;
  readonly quoted: boolean;
}

export type ArgumentSplit =
  { readonly ok: true; readonly args: readonly ScenarioArgument[] } | { readonly ok: false; readonly message: string };

const isSpace = (c: string | undefined) => c === ' ' || c === '\t';

/**
 * Splits the rest of a line into arguments. A bare word runs to the next space (quotes inside it
 * are kept, so `input[name="email"]` is one word); a word opening with `"` runs to the next
 * unescaped `"`, where `\"` is a quote and `\\` a backslash (any other backslash is kept as written,
 * so CSS escapes survive).
 */
export function splitArguments(text: string): ArgumentSplit {
  const args: ScenarioArgument[] = [];
  let i = 0;
  while (i < text.length) {
    if (isSpace(text[i])) {
      i++;
      continue;
    }
    if (text[i] !== '"') {
      const start = i;
      while (i < text.length && !isSpace(text[i])) i++;
      args.push({ value: text.slice(start, i), quoted: false });
      continue;
    }
    let value = '';
    let closed = false;
    for (i++; i < text.length; i++) {
      const c = text[i]!;
      if (c === '"') {
        closed = true;
        i++;
        break;
      }
      if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) {
        value += text[i + 1];
        i++;
        continue;
      }
      value += c;
    }
    if (!closed) return { ok: false, message: 'a quoted text is not closed (missing ")' };
    if (i < text.length && !isSpace(text[i])) return { ok: false, message: 'expected a space after the closing "' };
    args.push({ value, quoted: true });
  }
  return { ok: true, args };
}

/** An argument as a script would spell it: bare when that reads back the same, else quoted. */
export function formatArgument(value: string): string {
  return value !== '' && !/[\s"\\]/.test(value) ? value : `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
