import type { CheckKind, CheckRequest } from '../../domain/checks/check-request';
import type { AnyChecker, Checker } from './ports';

/** The checkers keyed by the kind of check (the monitor kind). */
export class CheckerRegistry {
  private readonly byKind = new Map<CheckKind, AnyChecker>();

  constructor(checkers: readonly AnyChecker[]) {
    for (const checker of checkers) {
      if (this.byKind.has(checker.kind)) throw new Error(`Two checkers registered for ${checker.kind}`);
      this.byKind.set(checker.kind, checker);
    }
  }

  kinds(): CheckKind[] {
    return [...this.byKind.keys()];
  }

  for<R extends CheckRequest>(kind: R['kind']): Checker<R> {
    const checker = this.byKind.get(kind);
    if (!checker) throw new Error(`No checker registered for ${kind}`);
    return checker as unknown as Checker<R>;
  }
}
