import { asPercent, hundredthsOfPercent } from './percent-shares';
import { mergeHistograms, percentile, type ResponseHistogram } from './response-histogram';

/** Location-seconds by state and check counts of one stretch of time (raw results or hourly rollups). */
export interface CoverageTotals {
  readonly upSeconds: number;
  readonly degradedSeconds: number;
  readonly downSeconds: number;
  readonly upChecks: number;
  readonly degradedChecks: number;
  readonly downChecks: number;
  readonly responseMsSum: number;
  readonly responseCount: number;
  readonly histogram: ResponseHistogram;
  /** Locations that reported in the stretch. */
  readonly locations: readonly string[];
}

export const emptyCoverage = (): CoverageTotals => ({
  upSeconds: 0,
  degradedSeconds: 0,
  downSeconds: 0,
  upChecks: 0,
  degradedChecks: 0,
  downChecks: 0,
  responseMsSum: 0,
  responseCount: 0,
  histogram: {},
  locations: [],
});

export function addCoverage(a: CoverageTotals, b: CoverageTotals): CoverageTotals {
  return {
    upSeconds: a.upSeconds + b.upSeconds,
    degradedSeconds: a.degradedSeconds + b.degradedSeconds,
    downSeconds: a.downSeconds + b.downSeconds,
    upChecks: a.upChecks + b.upChecks,
    degradedChecks: a.degradedChecks + b.degradedChecks,
    downChecks: a.downChecks + b.downChecks,
    responseMsSum: a.responseMsSum + b.responseMsSum,
    responseCount: a.responseCount + b.responseCount,
    histogram: mergeHistograms(a.histogram, b.histogram),
    locations: [...new Set([...a.locations, ...b.locations])].sort(),
  };
}

/**
 * Uptime over a window of expected location-time (the period times the locations a monitor checks
 * from). All shares have ONE denominator, the whole window, and add up to exactly 100:
 * uptimePercent + downtimePercent + unknownPercent = 100.00, degradedPercent being the part of
 * uptimePercent during which the target answered degraded. Time no result stands for is unknown and
 * never counts as up or down. uptimeOfKnownPercent is the other common figure, up of observed time.
 * Two decimals, apportioned by largest remainder (see hundredthsOfPercent). Every share is null
 * only for an empty window (a range before the monitor existed).
 */
export interface UptimeFigures {
  /** (up + degraded) / window. */
  uptimePercent: number | null;
  /** down / window. */
  downtimePercent: number | null;
  /** degraded / window: included in uptimePercent. */
  degradedPercent: number | null;
  /** unknown / window: expected location-time no result stands for (checker not running, monitor paused). */
  unknownPercent: number | null;
  /** (up + degraded) / (up + degraded + down): null when nothing is known. */
  uptimeOfKnownPercent: number | null;
  upSeconds: number;
  degradedSeconds: number;
  downSeconds: number;
  unknownSeconds: number;
  checks: { total: number; up: number; degraded: number; down: number };
  responseTime: { avgMs: number | null; p50Ms: number | null; p95Ms: number | null; p99Ms: number | null };
}

/** `expectedLocations` locations over `periodSeconds` is the time that should be covered. */
export function uptimeFigures(totals: CoverageTotals, periodSeconds: number, expectedLocations: number): UptimeFigures {
  const locations = Math.max(1, expectedLocations, totals.locations.length);
  const expected = Math.max(0, periodSeconds) * locations;
  const known = totals.upSeconds + totals.degradedSeconds + totals.downSeconds;
  const unknown = Math.max(0, expected - known);
  // Degraded counts as up (the target answered); it is apportioned apart so that it stays a part of uptime.
  const window = hundredthsOfPercent([totals.upSeconds, totals.degradedSeconds, totals.downSeconds, unknown]);
  const ofKnown = hundredthsOfPercent([totals.upSeconds + totals.degradedSeconds, totals.downSeconds]);
  return {
    uptimePercent: window && asPercent(window[0]! + window[1]!),
    downtimePercent: window && asPercent(window[2]!),
    degradedPercent: window && asPercent(window[1]!),
    unknownPercent: window && asPercent(window[3]!),
    uptimeOfKnownPercent: ofKnown && asPercent(ofKnown[0]!),
    upSeconds: Math.round(totals.upSeconds),
    degradedSeconds: Math.round(totals.degradedSeconds),
    downSeconds: Math.round(totals.downSeconds),
    unknownSeconds: Math.round(unknown),
    checks: {
      total: totals.upChecks + totals.degradedChecks + totals.downChecks,
      up: totals.upChecks,
      degraded: totals.degradedChecks,
      down: totals.downChecks,
    },
    responseTime: {
      avgMs: totals.responseCount > 0 ? Math.round(totals.responseMsSum / totals.responseCount) : null,
      p50Ms: percentile(totals.histogram, 50),
      p95Ms: percentile(totals.histogram, 95),
      p99Ms: percentile(totals.histogram, 99),
    },
  };
}
