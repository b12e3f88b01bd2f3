import { CORE_SCHEMA, load, YAMLException } from 'js-yaml';
import { isNode, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { WsmFile } from './file-schema';

/** A file refused before any call: each problem names the file, the line and the field. */
export class FileError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

/** A parsed, valid file, with the line each entry starts on (for messages). */
export interface LoadedFile {
  readonly name: string;
  readonly content: WsmFile;
  /** `file:line` of the node at a path (or its nearest ancestor present), e.g. ['monitors', 3]. */
  where(path: ReadonlyArray<string | number>): string;
}

type Path = ReadonlyArray<PropertyKey>;

/**
 * Reads the YAML text of `name`, refusing it (FileError) when it does not parse or does not match
 * the schema. The values are read by js-yaml (YAML 1.2 core schema: no timestamps, duplicate keys
 * refused), several times faster than a parse that keeps every node's position; the positions
 * (`yaml`'s document with a line counter) are worked out only when a message needs a line.
 */
export function loadFile(name: string, text: string): LoadedFile {
  let values: unknown;
  try {
    values = load(text, { schema: CORE_SCHEMA, filename: name });
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    throw new FileError([`${name}:${(error.mark?.line ?? 0) + 1}: ${error.reason}`]);
  }
  let located: ((path: Path) => number) | null = null;
  const where = (path: Path) => {
    located ??= positions(text);
    return `${name}:${located(path)}`;
  };
  const parsed = WsmFile.safeParse(values ?? {});
  if (!parsed.success) throw new FileError(parsed.error.issues.map((issue) => describe(issue, where)));
  return { name, content: parsed.data, where };
}

/** The line of each node of the text, by path: the text parsed again with positions. */
function positions(text: string): (path: Path) => number {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  return (path) => lineAt(doc, path, (offset) => lines.linePos(offset).line);
}

function describe(issue: z.core.$ZodIssue, where: (path: Path) => string): string {
  const path = issue.path as Path;
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const field = [...path, ...keys.slice(0, 1)]
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`))
    .join('');
  const at = keys.length > 0 ? [...path, keys[0]!] : path;
  return `${where(at)}: ${field || '(file)'}: ${issue.message}`;
}

/** The line of the node at `path`, or of its nearest ancestor that the file has (a missing field: its entry). */
function lineAt(doc: Document, path: Path, lineOf: (offset: number) => number): number {
  for (let length = path.length; length >= 0; length -= 1) {
    const prefix = path.slice(0, length);
    const node: unknown = prefix.length === 0 ? doc.contents : doc.getIn(prefix as unknown[], true);
    if (length > 0 && typeof path[length - 1] === 'string') {
      // A map key: point at the key itself (its line is the field's).
      const parent: unknown = length === 1 ? doc.contents : doc.getIn(path.slice(0, length - 1) as unknown[], true);
      const pair = (parent as { items?: Array<{ key: unknown }> } | null)?.items?.find(
        (item) => isNode(item.key) && (item.key as { value?: unknown }).value === path[length - 1],
      );
      if (pair && isNode(pair.key) && pair.key.range) return lineOf(pair.key.range[0]);
    }
    if (isNode(node) && node.range) return lineOf(node.range[0]);
  }
  return 1;
}
