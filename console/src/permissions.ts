import type { Schemas } from './api/client';

type Can = Schemas['Permissions'];

/** An act the service's role gates decide: `monitor.delete`, `incident.acknowledge`, ... (generated from its answer's schema). */
export type Act = { [R in keyof Can & string]: `${R}.${keyof Can[R] & string}` }[keyof Can & string];

/**
 * Whether the signed-in user may take an act, as the service answered in the session's `can` (the
 * same table its use cases enforce). The console shows a control only when this says yes; it never
 * reads a role itself.
 */
export function may(user: { readonly can: Can }, act: Act): boolean {
  const [resource, verb] = act.split('.') as [keyof Can, string];
  return (user.can[resource] as Record<string, boolean> | undefined)?.[verb] === true;
}

/** `may` as a predicate of one act (a navigation item's `shownTo`). */
export const allowedTo =
  (act: Act) =>
  (user: { readonly can: Can }): boolean =>
    may(user, act);
