import type { CheckContext, Checker, Screenshot, ScreenshotStore } from '../../../src/application/checks/ports';
import type { TcpCheckRequest } from '../../../src/domain/checks/check-request';
import { aCheckResult } from '../builders';

/** Screenshots in memory; a purge deletes those taken before the cut-off and remembers it. */
export class FakeScreenshots implements ScreenshotStore {
  purgedBefore: Date | null = null;
  constructor(readonly shots: Screenshot[] = []) {}
  async save(shot: Screenshot) {
    this.shots.push(shot);
  }
  async find(monitorId: number, id: string) {
    return this.shots.find((s) => s.monitorId === monitorId && s.id === id) ?? null;
  }
  async purgeBefore(before: Date) {
    this.purgedBefore = before;
    const stale = this.shots.filter((s) => s.takenAt < before);
    for (const shot of stale) this.shots.splice(this.shots.indexOf(shot), 1);
    return stale.length;
  }
}

/** A TCP checker that records what it was asked and answers as told: up, never (hang), or by throwing. */
export class FakeTcpChecker implements Checker<TcpCheckRequest> {
  readonly kind = 'tcp' as const;
  readonly seen: TcpCheckRequest[] = [];
  constructor(private readonly behaviour: 'up' | 'hang' | 'throw' = 'up') {}
  async check(request: TcpCheckRequest, context: CheckContext) {
    this.seen.push(request);
    if (this.behaviour === 'throw') throw new Error('adapter broke');
    if (this.behaviour === 'hang') await new Promise(() => undefined);
    return aCheckResult().ofKind('tcp').at(context.now).build();
  }
}
