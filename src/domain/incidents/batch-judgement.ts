import type { AlertDecision } from './alert-decision';
import { AlertEffects, type AlertedMonitor, type NewIncidentRef } from './alert-effects';
import type { AlertState } from './alert-state';
import { confirmationAt } from './confirmation';
import { dependenciesFirst, dependencyRootOf, type DependencyStatus } from './dependency-hold';
import type { Incident } from './incident';
import type { AlertPolicy } from '../results/alert-policy';
import type { CheckObservation } from '../results/check-status';
import { keepsDetail } from '../results/detail-sampling';
import { detailOf, storedOf, type ResultRow } from '../results/result-row';

/** What the rules need of a monitor whose results a batch judges. */
export interface JudgedProfile {
  readonly monitor: AlertedMonitor & { readonly checkIntervalSeconds: number };
  readonly policy: AlertPolicy;
  /** The monitors it depends on, in the order named (docs/dependencies.md). */
  readonly dependsOn: readonly number[];
}

/** One result of the batch, of a monitor that exists. */
export interface BatchObservation {
  readonly monitorId: number;
  readonly location: string;
  /** The monitor's check interval (detail sampling). */
  readonly intervalMs: number;
  readonly result: CheckObservation;
  /** A maintenance window covers the monitor at the result's time. */
  readonly suppressed: boolean;
}

/** Everything a batch's judgement reads, loaded before it (the states locked). */
export interface BatchFacts {
  /** In input order; results of monitors that no longer exist left out. */
  readonly observations: readonly BatchObservation[];
  readonly profiles: ReadonlyMap<number, JudgedProfile>;
  /** The monitors' alert states, locked for the batch: the judgement moves them. */
  readonly states: ReadonlyMap<number, AlertState>;
  /** The incidents the states name as open (as they are now: one closed meanwhile is let go). */
  readonly incidents: ReadonlyMap<number, Incident>;
  /** The states of the dependencies outside the batch. */
  readonly outsideDependencies: ReadonlyMap<number, DependencyStatus>;
  /** The locations some live check process serves (those reporting in the batch included). */
  readonly live: ReadonlySet<string>;
  readonly detailSampleMinutes: number;
  readonly now: Date;
}

/** How the rules judged one result: what they decided, the state after it, and when to confirm it. */
export interface Judgement {
  readonly decisions: AlertDecision['kind'][];
  /** The monitor's open automatic incident after this result, if any. */
  readonly openIncidentId: number | null;
  readonly state: AlertState;
  readonly policy: AlertPolicy;
  /** When to check the monitor again from every location to confirm this result (confirmation.ts); null: at its interval. */
  readonly confirmAt: Date | null;
}

/** What the batch changes, for the application to write in one transaction. */
export interface BatchDecisions {
  /** The results to store, in the order judged. */
  readonly results: ResultRow[];
  /** The states to save (every locked one). */
  readonly states: AlertState[];
  /** Incidents opened and resolved, timeline, events, routing. */
  readonly effects: AlertEffects;
  readonly judgements: ReadonlyMap<BatchObservation, Judgement>;
  /** Roots that stopped failing: the monitors they held are checked again at once. */
  readonly recovered: number[];
}

/** The judgement needs ids for incidents it opens: at most `count` more (the batch's down results not judged yet). */
export interface IdsNeeded {
  readonly count: number;
}

/**
 * Judges a batch's results with the alert rules, in memory: a monitor's results one after the
 * other (each location's older results ignored by the rules), a dependency before its dependents
 * (its failure in the batch holds them back whichever result came first). A state machine with no
 * I/O: when the batch opens an incident and has no id left it stops and asks (`IdsNeeded`), and
 * goes on with the ids handed to `next` (reserved once for all the batch's down results left, so a
 * storm asks once).
 */
export function* judgeBatch(facts: BatchFacts): Generator<IdsNeeded, BatchDecisions, readonly NewIncidentRef[]> {
  const { observations, profiles, states, live, now } = facts;
  const incidents = new Map(facts.incidents);
  const failingBefore = [...states.values()].filter((state) => state.isFailing);
  const effects = new AlertEffects(now);
  const results: ResultRow[] = [];
  const judgements = new Map<BatchObservation, Judgement>();
  const ids: NewIncidentRef[] = [];
  let downsLeft = observations.filter((o) => o.result.status === 'down').length;
  const rootOf = (dependsOn: readonly number[]) =>
    dependsOn.length === 0 ? null : dependencyRootOf(dependsOn, (id) => states.get(id) ?? facts.outsideDependencies.get(id));

  for (const observation of dependenciesFirst(
    observations,
    (o) => o.monitorId,
    (id) => profiles.get(id)?.dependsOn ?? [],
  )) {
    const { monitor, policy, dependsOn } = profiles.get(observation.monitorId)!;
    const state = states.get(observation.monitorId)!;
    const { result, location, suppressed } = observation;
    state.followInterval(monitor.checkIntervalSeconds);
    const previousStatus = state.location(location)?.status ?? null;
    const sampled = { monitorId: observation.monitorId, checkedAt: result.checkedAt, intervalMs: observation.intervalMs };
    const keep = keepsDetail(result.status, previousStatus ?? undefined, sampled, facts.detailSampleMinutes);
    results.push({ ...storedOf(observation.monitorId, location, result), detail: keep ? detailOf(result) : null });

    let incident: Incident | null = state.openIncidentId === null ? null : (incidents.get(state.openIncidentId) ?? null);
    if (incident && !incident.isOpen) incident = null;
    if (!incident) state.incidentClosedElsewhere();
    const decisions = state.observe(
      { location, status: result.status, reasonCode: result.reasonCode, checkedAt: result.checkedAt },
      policy,
      {
        suppressed,
        remindersMuted: incident?.status === 'acknowledged',
        live,
        dependencyRoot: rootOf(dependsOn),
      },
    );
    const opens = decisions.filter((decision) => decision.kind === 'open').length;
    if (opens > ids.length) ids.push(...(yield { count: Math.max(opens - ids.length, downsLeft) }));
    for (const decision of decisions) {
      incident = effects.carryOut(decision, { state, incident, monitor, location, result }, () => ids.shift()!);
    }
    if (incident) incidents.set(incident.id, incident);
    if (result.status === 'down') downsLeft -= 1;
    judgements.set(observation, {
      decisions: decisions.map((d) => d.kind),
      openIncidentId: state.openIncidentId,
      state,
      policy,
      confirmAt: confirmationAt({
        state,
        policy,
        location,
        status: result.status,
        checkedAt: result.checkedAt,
        previousStatus,
        suppressed,
      }),
    });
  }
  return {
    results,
    states: [...states.values()],
    effects,
    judgements,
    recovered: failingBefore.filter((state) => !state.isFailing).map((state) => state.monitorId),
  };
}

/** Runs a judgement to its end with ids from `reserve` (what a caller with its ids at hand, or a test, does). */
export function judgeWith(facts: BatchFacts, reserve: (count: number) => readonly NewIncidentRef[]): BatchDecisions {
  const run = judgeBatch(facts);
  let step = run.next();
  while (!step.done) step = run.next(reserve(step.value.count));
  return step.value;
}
