import { CORE_SCHEMA, EVENT_ID, getScalarValue, load, parseEvents, YAMLException } from 'js-yaml';
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
 * (js-yaml's event stream, each node with its source offset) are worked out only when a message
 * needs a line.
 */
export function loadFile(name: string, text: string): LoadedFile {
  let values: unknown;
  try {
    values = load(text, { schema: CORE_SCHEMA, filename: name });
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    throw new FileError([`${name}:${(error.mark?.line ?? 0) + 1}: ${error.reason}`]);
  }
  const where = locator(name, text);
  const parsed = WsmFile.safeParse(values ?? {});
  if (!parsed.success) throw new FileError(parsed.error.issues.map((issue) => describe(issue, where)));
  return { name, content: parsed.data, where };
}

/** `file:line` of a path of the text, the positions worked out on the first call. */
export function locator(name: string, text: string): (path: Path) => string {
  let located: ((path: Path) => number) | null = null;
  return (path) => {
    located ??= positions(text);
    return `${name}:${located(path)}`;
  };
}

/** The line of each node of the text, by path: the text's events read again, each with its offset. */
function positions(text: string): (path: Path) => number {
  const { nodes, keys } = offsets(text);
  const starts = lineStarts(text);
  const lineOf = (offset: number) => {
    let [low, high] = [0, starts.length - 1];
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
  return (path) => lineAt(path, nodes, keys, lineOf);
}

const lineStarts = (text: string): number[] => {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
};

/** A collection being read: its path, the next item's index (a sequence) or the key read last (a mapping). */
interface Frame {
  readonly path: PropertyKey[];
  readonly kind: 'document' | 'sequence' | 'mapping';
  index: number;
  key: string | null;
  expectsKey: boolean;
}

/**
 * The source offset of every node by its path (JSON of the path), and of every mapping key by the
 * path of its value: the document's events (js-yaml's parser) walked once.
 */
function offsets(text: string): { nodes: Map<string, number>; keys: Map<string, number> } {
  const nodes = new Map<string, number>();
  const keys = new Map<string, number>();
  const stack: Frame[] = [];
  for (const event of parseEvents(text, {})) {
    if (event.type === EVENT_ID.POP) {
      stack.pop();
      continue;
    }
    if (event.type === EVENT_ID.DOCUMENT) {
      stack.push({ path: [], kind: 'document', index: 0, key: null, expectsKey: false });
      continue;
    }
    const parent = stack[stack.length - 1];
    if (!parent) continue;
    const offset = event.type === EVENT_ID.SCALAR ? event.valueStart : event.type === EVENT_ID.ALIAS ? event.anchorStart : event.start;
    if (parent.kind === 'mapping' && parent.expectsKey) {
      parent.key = event.type === EVENT_ID.SCALAR ? getScalarValue(text, event) : null;
      parent.expectsKey = false;
      if (parent.key !== null) keys.set(JSON.stringify([...parent.path, parent.key]), offset);
      // A collection as a key (never in a wsm file): read through, under a path no field has.
      if (event.type === EVENT_ID.MAPPING || event.type === EVENT_ID.SEQUENCE) stack.push(frame(['\u0000key'], event.type));
      continue;
    }
    const path =
      parent.kind === 'document' ? [] : parent.kind === 'sequence' ? [...parent.path, parent.index++] : [...parent.path, parent.key ?? ''];
    if (parent.kind === 'mapping') parent.expectsKey = true;
    nodes.set(JSON.stringify(path), offset);
    if (event.type === EVENT_ID.MAPPING || event.type === EVENT_ID.SEQUENCE) stack.push(frame(path, event.type));
  }
  return { nodes, keys };
}

const frame = (path: PropertyKey[], type: typeof EVENT_ID.MAPPING | typeof EVENT_ID.SEQUENCE): Frame => ({
  path,
  kind: type === EVENT_ID.MAPPING ? 'mapping' : 'sequence',
  index: 0,
  key: null,
  expectsKey: type === EVENT_ID.MAPPING,
});

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
function lineAt(path: Path, nodes: Map<string, number>, keys: Map<string, number>, lineOf: (offset: number) => number): number {
  for (let length = path.length; length >= 0; length -= 1) {
    const at = JSON.stringify(path.slice(0, length));
    // A map key: point at the key itself (its line is the field's).
    const key = length > 0 && typeof path[length - 1] === 'string' ? keys.get(at) : undefined;
    if (key !== undefined) return lineOf(key);
    const node = nodes.get(at);
    if (node !== undefined) return lineOf(node);
  }
  return 1;
}
