import type { Clock } from '../../src/application/shared/clock';

/**
 * The shared test server's clock: real time plus an offset that tests move forward to cross
 * windows (step-up validity, locks, the 30-day deletion grace). It never moves back, so tests
 * running after an advance see a consistent, later "now".
 */
export class TestClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export const testClock = new TestClock();
