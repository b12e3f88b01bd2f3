import { decideBurn } from '../../domain/service-levels/burn-alert';
import { burnEventOf } from '../../domain/service-levels/events';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { ObjectiveMeter } from './objective-meter';
import type { ObjectiveRepository, ServiceLevelEvents } from './ports';

/** How often objectives with alerts on are evaluated: a fifth of the shortest burn window (5 min). */
export const BURN_CADENCE_MS = 60_000;

const rounded = (rate: number | null) => (rate === null ? null : Number(rate.toFixed(2)));

/**
 * The burn-rate alerts (every BURN_CADENCE_MS while an objective has alerts on): each objective with alerts on is measured over the burn
 * windows; a state change is claimed (only if the state is still the one read) and told in the same
 * transaction, so a breach is told once however many workers evaluate, and its end once. The
 * message carries the window's attainment and budget left, measured at the change.
 */
export class EvaluateBurnAlerts {
  constructor(
    private readonly objectives: ObjectiveRepository,
    private readonly meter: ObjectiveMeter,
    private readonly events: ServiceLevelEvents,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ evaluated: number; burning: number; recovered: number }> {
    const now = this.clock.now();
    const report = { evaluated: 0, burning: 0, recovered: 0 };
    for (const objective of await this.objectives.alerting()) {
      report.evaluated += 1;
      const burn = await this.meter.status(objective, now, { withWindow: false });
      const decision = decideBurn(objective.burnState, burn.burnRates);
      if (decision.tell === null) continue;
      const whole = await this.meter.status(objective, now);
      const told = await this.tx.run(async (tx) => {
        if (!(await this.objectives.claimBurn(objective.id, objective.burnState, decision.next, now, tx))) return false;
        await this.events.publish(
          [
            burnEventOf(decision.tell === 'burning' ? 'slo.burning' : 'slo.recovered', objective, now, {
              rules: decision.rules,
              burnRates: Object.fromEntries(Object.entries(burn.burnRates).map(([k, v]) => [k, rounded(v)])),
              attainmentPercent: whole.level.attainmentPercent,
              budgetLeftPercent: whole.level.budget.leftPercent,
              budgetLeftMinutes: whole.level.budget.leftMinutes,
            }),
          ],
          tx,
        );
        return true;
      });
      if (told) report[decision.tell] += 1;
    }
    return report;
  }

  /** The next evaluation: a cadence after the last while an objective has alerts on (or is still burning); none without. */
  async nextDueAt(lastEvaluatedAt: Date | null): Promise<Date | null> {
    if ((await this.objectives.alerting()).length === 0) return null;
    return lastEvaluatedAt ? new Date(lastEvaluatedAt.getTime() + BURN_CADENCE_MS) : this.clock.now();
  }
}
