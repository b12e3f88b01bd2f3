import { ManualClock } from './manual-clock';

/**
 * The shared test server's clock: real time plus an offset that tests move forward to cross
 * windows. It never moves back, so tests running after an advance see a consistent, later "now".
 */
export const testClock = ManualClock.followingRealTime();
