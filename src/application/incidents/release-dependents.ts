import type { AlertState } from '../../domain/incidents/alert-state';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { MonitorLookup } from '../results/ports';
import { AlertEffects, type AlertActions } from './alert-actions';
import { BatchDependencies } from './batch-dependencies';
import type { AlertStateRepository, IncidentRepository, LiveLocations, MaintenanceWindows } from './ports';

/**
 * Roots that stopped failing let go of the monitors they held back (dependencyDown): each held
 * monitor is judged again at once, without waiting for its next result, and one whose failures
 * still stand (they were confirmed before it was held) opens its own incident now. Runs after the
 * batch that saw the roots recover committed, in its own transaction (the held states locked in
 * monitor order, as a batch locks them); if it never runs, each held monitor's next result judges
 * it the same way.
 */
export class ReleaseDependents {
  constructor(
    private readonly monitors: MonitorLookup,
    private readonly states: AlertStateRepository,
    private readonly incidents: IncidentRepository,
    private readonly maintenance: MaintenanceWindows,
    private readonly actions: AlertActions,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    private readonly liveness: LiveLocations,
  ) {}

  /** Answers the monitors that opened their own incident. */
  async execute(rootIds: readonly number[]): Promise<number[]> {
    const seeds = await this.states.heldBy(rootIds);
    if (seeds.length === 0) return [];
    const profiles = await this.monitors.alertProfiles(seeds.map((seed) => seed.monitorId));
    const known = seeds.filter((seed) => profiles.has(seed.monitorId));
    const now = this.clock.now();
    const suppressed = await this.maintenance.suppressedMany(known.map((seed) => ({ monitorId: seed.monitorId, at: now })));
    const live: ReadonlySet<string> = new Set(await this.liveness.live(now));
    const dependencies = await BatchDependencies.load(profiles, this.states);
    const roots = new Set(rootIds);
    return this.transactions.run(async () => {
      const states = await this.states.lockMany(known, now);
      const effects = new AlertEffects(
        (count) => this.incidents.reserveIds(count),
        () => known.length,
      );
      const opened: number[] = [];
      const changed: AlertState[] = [];
      for (const [k, seed] of known.entries()) {
        const state = states.get(seed.monitorId)!;
        if (state.dependencyRootId === null || !roots.has(state.dependencyRootId)) continue;
        const { monitor, policy, dependsOn } = profiles.get(seed.monitorId)!;
        const decisions = state.reconsider(
          policy,
          { suppressed: suppressed[k]!, remindersMuted: false, live, dependencyRoot: dependencies.rootOf(dependsOn, states) },
          now,
        );
        changed.push(state);
        const down = Object.entries(state.locations)
          .filter(([, l]) => l.lastStatus === 'down')
          .sort(([, a], [, b]) => b.lastCheckedAt.localeCompare(a.lastCheckedAt))[0];
        const result = {
          status: 'down' as const,
          reasonCode: down?.[1].lastReasonCode ?? null,
          message: null,
          timings: { dnsMs: null, connectMs: null, tlsMs: null, firstByteMs: null, totalMs: null },
          evidence: {},
          checkedAt: now,
        };
        let incident = null;
        for (const decision of decisions) {
          incident = await this.actions.carryOut(decision, { state, incident, monitor, location: down?.[0] ?? '', result }, effects);
        }
        if (incident) opened.push(seed.monitorId);
      }
      await this.actions.persist(effects);
      await this.states.saveMany(changed);
      return opened;
    });
  }
}
