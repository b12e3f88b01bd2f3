/**
 * Objects of many fields built field by field (a monitor's forty-odd settings, once for the file's
 * entry and once for the service's record) become V8 dictionaries once a dozen properties are added
 * by a computed name: about three times the memory, and a for-in over them (the diff's) lists and
 * sorts their keys each time. Built instead as a copy of a cached object with the same keys in the
 * same order, whose values are then overwritten, they share one shape.
 */

/** At most this many keys are kept in the tree below (a file's entries repeat a few key lists); past it, objects are built as before. */
const MAX_NODES = 16_384;

/** The shapes by their keys, one key a level (field names are interned strings: no key list is joined or hashed). */
interface Node {
  readonly next: Map<string, Node>;
  shape?: Readonly<Record<string, undefined>>;
}
const root: Node = { next: new Map() };
let count = 0;

/** A plain object with `keys` in that order, each key's value `values[i]` (the same as assigning them one by one). */
export function shapedObject(keys: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  let node = root;
  for (const key of keys) {
    let next = node.next.get(key);
    if (!next) {
      if (count >= MAX_NODES) return unshaped(keys, values);
      next = { next: new Map() };
      count += 1;
      node.next.set(key, next);
    }
    node = next;
  }
  if (!node.shape) {
    // '__proto__' assigned would set the prototype rather than a field (no schema field has the name).
    if (keys.includes('__proto__')) return unshaped(keys, values);
    node.shape = Object.fromEntries(keys.map((key) => [key, undefined]));
  }
  const object: Record<string, unknown> = { ...node.shape };
  for (let i = 0; i < keys.length; i += 1) object[keys[i]!] = values[i];
  return object;
}

const unshaped = (keys: readonly string[], values: readonly unknown[]) => Object.fromEntries(keys.map((key, i) => [key, values[i]]));
