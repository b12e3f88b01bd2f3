import type { Clock } from '../../src/application/shared/clock';

/** Where a ManualClock starts unless told otherwise. */
export const CLOCK_START = new Date('2026-06-01T12:00:00Z');

/**
 * The one test clock: time moves only when the test says so (`advance`, `set`). Unit tests start it
 * at a fixed instant; the shared integration server uses `followingRealTime()`, real time plus the
 * offset tests add to cross windows (step-up validity, locks, the 30-day deletion grace).
 */
export class ManualClock implements Clock {
  /** The instant (manual) or the offset from real time (following real time). */
  private atMs: number;

  constructor(
    start: Date | string | number = CLOCK_START,
    private readonly realTime = false,
  ) {
    this.atMs = new Date(start).getTime();
  }

  /** A clock that runs with real time, moved only forward by `advance` (tests after an advance see a later "now"). */
  static followingRealTime(): ManualClock {
    return new ManualClock(0, true);
  }

  now(): Date {
    return new Date(this.ms);
  }

  /** Now in milliseconds. */
  get ms(): number {
    return this.realTime ? Date.now() + this.atMs : this.atMs;
  }

  advance(ms: number): void {
    this.atMs += ms;
  }

  /** Moves a manual clock to `at` (back or forth). */
  set(at: Date | string | number): void {
    if (this.realTime) throw new Error('a clock following real time only moves forward: use advance');
    this.atMs = new Date(at).getTime();
  }
}
