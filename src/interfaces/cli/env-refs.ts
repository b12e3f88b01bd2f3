/**
 * Secrets by reference: a string of the file may hold `${env:NAME}`, replaced by the environment
 * variable NAME when the value is compared or sent, and never printed. Export writes references
 * for what the service never returns (credentials, chain secrets) and for sensitive headers.
 */

const REF = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

export const envRef = (name: string) => `\${env:${name}}`;

/** One reference anywhere in a string (not global: `test` keeps no state between calls). */
const HAS_REF = new RegExp(REF.source);

/** Whether a value (deeply) holds a reference. */
export function hasEnvRef(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('${env:') && HAS_REF.test(value);
  if (typeof value !== 'object' || value === null) return false;
  // Loops rather than some(): a plan asks this of every field of every entry, and most are small.
  if (Array.isArray(value)) {
    for (const item of value) if (hasEnvRef(item)) return true;
    return false;
  }
  for (const key in value) if (Object.hasOwn(value, key) && hasEnvRef((value as Record<string, unknown>)[key])) return true;
  return false;
}

/** A reference to a variable the environment lacks: names it, for the caller to say where. */
export class MissingEnv extends Error {
  constructor(readonly variable: string) {
    super(`environment variable ${variable} is not set`);
  }
}

/** The value with every reference replaced (deeply); MissingEnv when a variable is unset. */
export function resolveEnv(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string')
    return value.replace(REF, (_m, name: string) => {
      const found = env[name];
      if (found === undefined) throw new MissingEnv(name);
      return found;
    });
  if (Array.isArray(value)) return value.map((v) => resolveEnv(v, env));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveEnv(v, env)]));
  return value;
}

/** A name for a reference export writes: WSM_<KEY>_<PART>, upper case, other characters as _. */
export const envName = (...parts: string[]) =>
  ['WSM', ...parts]
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9_]/g, '_');
