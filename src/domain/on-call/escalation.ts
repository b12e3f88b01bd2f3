import type { EscalationLevel, EscalationTarget } from './escalation-policy';
import { onCallAt } from './on-call';
import type { ScheduleDefinition } from './schedule';

const MINUTE_MS = 60_000;

/** One page of a policy's chain: level `level` (0-based) in pass `cycle` (0 = first run), due at `dueAt`. */
export interface EscalationStep {
  readonly step: number;
  readonly cycle: number;
  readonly level: number;
  readonly dueAt: Date;
  readonly targets: readonly EscalationTarget[];
}

export interface EscalationPlan {
  readonly levels: readonly EscalationLevel[];
  readonly repeatCount: number;
}

/** Where an incident stands: escalation stops at the first acknowledgement or resolution. */
export interface EscalationSubject {
  readonly openedAt: Date;
  readonly acknowledgedAt: Date | null;
  readonly resolvedAt: Date | null;
}

export interface EscalationProgress {
  /** Steps already due and paged, in order. */
  readonly fired: readonly EscalationStep[];
  /** The step that comes due next, or null when the chain is stopped or exhausted. */
  readonly next: EscalationStep | null;
  /** When escalation stopped (acknowledged or resolved), or null while it runs. */
  readonly stoppedAt: Date | null;
}

/** Every step of the chain: level 1 at the opening, each next level the previous one's delay later, the chain repeated `repeatCount` times. */
export function escalationSteps(plan: EscalationPlan, openedAt: Date): EscalationStep[] {
  const steps: EscalationStep[] = [];
  let at = openedAt.getTime();
  for (let cycle = 0; cycle <= plan.repeatCount; cycle += 1) {
    plan.levels.forEach((level, index) => {
      steps.push({ step: steps.length, cycle, level: index, dueAt: new Date(at), targets: level.targets });
      at += level.delayMinutes * MINUTE_MS;
    });
  }
  return steps;
}

/**
 * Which steps have fired by `now` and which comes next. A step due at the very instant of the
 * acknowledgement does not fire: the person acknowledging has answered it.
 */
export function escalationProgress(plan: EscalationPlan, subject: EscalationSubject, now: Date): EscalationProgress {
  const stops = [subject.acknowledgedAt, subject.resolvedAt].filter((d): d is Date => d !== null && d <= now);
  const stoppedAt = stops.length ? new Date(Math.min(...stops.map((d) => d.getTime()))) : null;
  const steps = escalationSteps(plan, subject.openedAt);
  const fired = steps.filter((s) => s.dueAt <= now && (!stoppedAt || s.dueAt < stoppedAt));
  const next = stoppedAt ? null : (steps.find((s) => s.dueAt > now) ?? null);
  return { fired, next, stoppedAt };
}

/** The teams and schedules targets may name, as the page rule needs them. */
export interface EscalationDirectory {
  readonly schedules: ReadonlyMap<string, ScheduleDefinition>;
  readonly teams: ReadonlyMap<string, { readonly memberIds: readonly string[]; readonly scheduleIds: readonly string[] }>;
}

/**
 * The users a step pages at `at`, each once, in target order: a user target is that user; a
 * schedule target is whoever is on call in it (nobody when no one is); a team target is whoever is
 * on call in the team's schedules, or every member when none of them has anyone on call, so a
 * team page never goes nowhere. Targets the directory does not know (deleted since) page nobody.
 */
export function whomToPage(targets: readonly EscalationTarget[], directory: EscalationDirectory, at: Date): string[] {
  const users = new Set<string>();
  const onCall = (scheduleId: string) => {
    const schedule = directory.schedules.get(scheduleId);
    return schedule ? (onCallAt(schedule, at)?.userId ?? null) : null;
  };
  for (const target of targets) {
    if (target.type === 'user') users.add(target.id);
    else if (target.type === 'schedule') {
      const userId = onCall(target.id);
      if (userId) users.add(userId);
    } else {
      const team = directory.teams.get(target.id);
      if (!team) continue;
      const onCallUsers = team.scheduleIds.map(onCall).filter((u): u is string => u !== null);
      for (const userId of onCallUsers.length ? onCallUsers : team.memberIds) users.add(userId);
    }
  }
  return [...users];
}

/**
 * The step "escalate now" pages: the chain's next step (`nextStep`, the first one not paged yet),
 * or, once the chain is exhausted or stopped (null), its last level again, so asking for more help
 * always reaches someone. Null for a policy without levels.
 */
export function stepToEscalateNow(plan: EscalationPlan, openedAt: Date, nextStep: number | null): EscalationStep | null {
  const steps = escalationSteps(plan, openedAt);
  if (steps.length === 0) return null;
  return (nextStep === null ? undefined : steps[nextStep]) ?? steps[steps.length - 1]!;
}
