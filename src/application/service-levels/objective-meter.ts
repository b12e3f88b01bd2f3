import { BURN_WINDOWS, type BurnRates, type BurnWindow } from '../../domain/service-levels/burn-alert';
import type { ServiceLevelObjective } from '../../domain/service-levels/objective';
import { windowSpan, type WindowSpan } from '../../domain/service-levels/objective-window';
import { burnRate, serviceLevel, type ObjectiveMeasure, type ServiceLevel } from '../../domain/service-levels/service-level';
import { coverageSeconds } from '../../domain/results/coverage';
import type { DateRange } from '../../domain/results/date-range';
import { withoutSpans } from '../../domain/results/excluded-time';
import { planSegments } from '../../domain/results/stats-segments';
import type { MonitorRef, UptimeExclusions } from '../results/ports';
import type { CoveragePiece, GoodBad, ObjectiveSubjects, ServiceLevelCoverage } from './ports';

/** An objective measured at an instant. */
export interface ObjectiveStatus {
  readonly span: WindowSpan;
  readonly monitors: number;
  readonly measure: ObjectiveMeasure;
  readonly level: ServiceLevel;
  readonly burnRates: BurnRates;
}

const MINUTE_MS = 60_000;
const LONGEST_BURN_MS = Math.max(...Object.values(BURN_WINDOWS)) * MINUTE_MS;
const BURN_KEYS = Object.keys(BURN_WINDOWS) as BurnWindow[];
const ms = (range: DateRange) => Math.max(0, range.to.getTime() - range.from.getTime());

export interface MeterOptions {
  /** false: the burn windows only. */
  readonly withWindow: boolean;
  /** A stretch to measure instead of the objective's window. */
  readonly range?: DateRange;
}

/** Which figure a piece adds to: the window's, or one burn window's. */
type Slot = 'window' | BurnWindow;

/**
 * Measures objectives from the stored results, as the uptime figures do (GetUptimeStats): each
 * monitor counted from its first result, maintenance that excludes time from uptime left out, whole
 * hours from the rollups and the rest from the results; then every monitor's pieces are read in one
 * pass (ServiceLevelCoverage). `withWindow: false` measures only the burn windows (the alert
 * evaluation, every minute, needs no 30-day read).
 */
export class ObjectiveMeter {
  constructor(
    private readonly subjects: ObjectiveSubjects,
    private readonly coverage: ServiceLevelCoverage,
    private readonly exclusions: UptimeExclusions,
  ) {}

  async status(objective: ServiceLevelObjective, now: Date, options: MeterOptions = { withWindow: true }): Promise<ObjectiveStatus> {
    const monitors = await this.subjects.monitorsOf(objective.organizationId, objective.subject);
    return this.statusOf(objective, monitors, now, options);
  }

  /**
   * The same for monitors already known (the bench passes them in). `range` measures a stretch of
   * its own instead of the objective's window (a report's period): counted up to now at most, and
   * the rest of it, if any, is still to come.
   */
  async statusOf(
    objective: ServiceLevelObjective,
    monitors: readonly MonitorRef[],
    now: Date,
    { withWindow, range }: MeterOptions,
  ): Promise<ObjectiveStatus> {
    const span: WindowSpan = range
      ? { from: range.from, to: new Date(Math.min(range.to.getTime(), now.getTime())), end: range.to }
      : windowSpan(objective.window, objective.timezone, now);
    const [rolledUp, firsts] = await Promise.all([this.coverage.rolledUp(), this.coverage.firstResults(monitors.map((m) => m.monitorId))]);
    const pieces: CoveragePiece[] = [];
    const slots: Slot[] = [];
    let expected = 0;
    let maintenance = 0;
    let remaining = 0;
    let lanes = 0;
    for (const monitor of monitors) {
      const first = firsts.get(monitor.monitorId);
      if (first === undefined) continue;
      const laneCount = Math.max(1, monitor.locations.length);
      const start = Math.max(span.from.getTime(), monitor.createdAt.getTime(), first.getTime());
      const counted: DateRange = { from: new Date(Math.min(start, span.to.getTime())), to: span.to };
      const burnFrom = new Date(now.getTime() - LONGEST_BURN_MS);
      const read = { from: withWindow && counted.from < burnFrom ? counted.from : burnFrom, to: now };
      const spans = await this.exclusions.spans(monitor.monitorId, read);
      const cap = coverageSeconds(monitor.checkIntervalSeconds);
      const add = (slot: Slot, range: DateRange) => {
        for (const piece of withoutSpans(range, spans))
          for (const segment of planSegments(piece, rolledUp)) {
            pieces.push({ monitorId: monitor.monitorId, range: segment, source: segment.source, capSeconds: cap });
            slots.push(slot);
          }
      };
      lanes += laneCount;
      remaining += (ms({ from: span.to, to: span.end }) / 1000) * laneCount;
      if (withWindow) {
        const kept = withoutSpans(counted, spans).reduce((sum, piece) => sum + ms(piece), 0);
        expected += (kept / 1000) * laneCount;
        maintenance += ((ms(counted) - kept) / 1000) * laneCount;
        add('window', counted);
      }
      for (const key of BURN_KEYS) add(key, { from: new Date(now.getTime() - BURN_WINDOWS[key] * MINUTE_MS), to: now });
    }
    const measured = await this.coverage.measure(pieces);
    const sums = new Map<Slot, { good: number; bad: number }>();
    measured.forEach((part: GoodBad, i) => {
      const sum = sums.get(slots[i]!) ?? { good: 0, bad: 0 };
      sums.set(slots[i]!, { good: sum.good + part.good, bad: sum.bad + part.bad });
    });
    const window = sums.get('window') ?? { good: 0, bad: 0 };
    const measure: ObjectiveMeasure = {
      goodSeconds: window.good,
      badSeconds: window.bad,
      expectedSeconds: expected,
      maintenanceSeconds: maintenance,
      remainingSeconds: remaining,
      lanes: Math.max(1, lanes),
    };
    const rate = (key: BurnWindow) => {
      const part = sums.get(key) ?? { good: 0, bad: 0 };
      return burnRate(objective.target, part.good, part.bad);
    };
    return {
      span,
      monitors: monitors.length,
      measure,
      level: serviceLevel(objective.target, measure),
      burnRates: { '5m': rate('5m'), '30m': rate('30m'), '1h': rate('1h'), '6h': rate('6h') },
    };
  }
}
