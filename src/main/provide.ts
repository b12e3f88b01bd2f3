import type { Container } from 'inversify';
import type { Needs, Provided } from '../application/shared/token';

/**
 * What a router, job or host declared it needs, resolved from the container: each name is resolved
 * when it is read (as a request or a run reads it), so a binding replaced at run time (tests reload
 * the checks module) is the one used. The only place outside the modules' bindings that reads the
 * container.
 */
export function provide<N extends Needs>(container: Container, needs: N): Provided<N> {
  const provided = {};
  for (const [name, id] of Object.entries(needs)) {
    Object.defineProperty(provided, name, { enumerable: true, get: () => container.get(id) });
  }
  return provided as Provided<N>;
}
