/**
 * What the stored results say of an objective's subject over its window, in location-seconds (a
 * monitor checked from two places has two lanes: a minute of the window is two minutes of lanes).
 * Maintenance that is excluded from uptime is already left out of every figure.
 */
export interface ObjectiveMeasure {
  /** Up or degraded time: the target answered. */
  readonly goodSeconds: number;
  /** Down time. */
  readonly badSeconds: number;
  /** Lane-time of the window so far that should have been covered (maintenance left out). */
  readonly expectedSeconds: number;
  /** Lane-time left out for maintenance. */
  readonly maintenanceSeconds: number;
  /** Lane-time of the window still to come (a calendar month's rest; 0 for a rolling window). */
  readonly remainingSeconds: number;
  /** Monitor-location lanes measured (at least 1). */
  readonly lanes: number;
}

export interface ServiceLevel {
  /** good / (good + bad), percent, four decimals; null when nothing is known. */
  readonly attainmentPercent: number | null;
  readonly met: boolean | null;
  /** Expected time no result stands for: neither good nor bad, reported apart. */
  readonly unknownMinutes: number;
  readonly unknownPercent: number | null;
  readonly maintenanceMinutes: number;
  readonly budget: {
    /** (1 - target) of the known time plus the time still to come. */
    readonly totalMinutes: number;
    readonly spentMinutes: number;
    readonly leftMinutes: number;
    /** left / total, percent, two decimals; negative once overspent; null when the budget is still empty. */
    readonly leftPercent: number | null;
  };
}

const round = (value: number, decimals: number) => Number(value.toFixed(decimals));
/** Lane-seconds as minutes of one lane: what one monitor checked from one place would have spent. */
const minutes = (laneSeconds: number, lanes: number) => round(laneSeconds / Math.max(1, lanes) / 60, 2);

/**
 * Attainment and error budget of an objective. Unknown time (no result stands for it) neither
 * spends nor earns budget: attainment is good over known time, the budget is the allowed share
 * (1 - target) of the known time plus, for a calendar month, the time still to come. Minutes are
 * per lane, so a customer's 20 monitors do not have 20 times the budget of one.
 */
export function serviceLevel(target: number, measure: ObjectiveMeasure): ServiceLevel {
  const known = measure.goodSeconds + measure.badSeconds;
  const attainment = known > 0 ? (measure.goodSeconds / known) * 100 : null;
  const unknown = Math.max(0, measure.expectedSeconds - known);
  const allowed = ((100 - target) / 100) * (known + measure.remainingSeconds);
  const total = minutes(allowed, measure.lanes);
  const spent = minutes(measure.badSeconds, measure.lanes);
  return {
    attainmentPercent: attainment === null ? null : round(attainment, 4),
    met: attainment === null ? null : attainment >= target,
    unknownMinutes: minutes(unknown, measure.lanes),
    unknownPercent: measure.expectedSeconds > 0 ? round((unknown / measure.expectedSeconds) * 100, 2) : null,
    maintenanceMinutes: minutes(measure.maintenanceSeconds, measure.lanes),
    budget: {
      totalMinutes: total,
      spentMinutes: spent,
      leftMinutes: round(total - spent, 2),
      leftPercent: allowed > 0 ? round(((allowed - measure.badSeconds) / allowed) * 100, 2) : null,
    },
  };
}

/**
 * How fast the budget burns over a stretch: the share of bad known time over the allowed share.
 * 1 spends the budget exactly over the window; 14.4 spends a 30-day budget in about two days.
 * Null when nothing is known in the stretch. Unrounded: the alert rules compare it with their factors.
 */
export function burnRate(target: number, goodSeconds: number, badSeconds: number): number | null {
  const known = goodSeconds + badSeconds;
  if (known <= 0) return null;
  return badSeconds / known / ((100 - target) / 100);
}
