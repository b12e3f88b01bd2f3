import type { CheckStatus } from '../results/check-status';
import type { AlertDecision, AlertObservation } from './alert-decision';
import type { AlertPolicy } from '../results/alert-policy';
import { quorumOf } from './quorum';
import { DNSBL_REASON_CODES, SSL_EXPIRY_REASON_CODES } from './reason-codes';

/** What the rules remember of one location (stored as JSON, hence ISO strings). */
export interface LocationAlertState {
  consecutiveFailures: number;
  /** First failure of the current streak. */
  failingSince: string | null;
  lastStatus: CheckStatus;
  lastReasonCode: string | null;
  lastCheckedAt: string;
}

/** A reminder series (certificate expiry, blocklisting). */
export interface ConditionState {
  since: string;
  lastNotifiedAt: string | null;
  /** Certificates: the expiry (sslExpired) was announced, not only its approach. Absent in states stored before. */
  expiredNotified?: boolean;
}

export interface ObserveContext {
  /** A maintenance window covers the monitor: nothing opens and nothing is announced. */
  readonly suppressed: boolean;
  /** The open incident was acknowledged: reminders stop (as in PagerDuty and Better Stack). */
  readonly remindersMuted: boolean;
  /**
   * The locations some live check process serves (see quorum.ts): only they vote. Absent: every
   * location counts as live.
   */
  readonly live?: ReadonlySet<string>;
  /** The root of a dependency that is down or being confirmed down (see dependency-hold.ts): the monitor opens nothing of its own. */
  readonly dependencyRoot?: number | null;
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * The alert rules of one monitor, as a state machine fed one result at a time. Callers hold the
 * monitor's row lock while they run it, so results from several locations are applied one after
 * the other. Results older than the last one of their location change nothing.
 */
export class AlertState {
  readonly monitorId: number;
  readonly organizationId: number;
  readonly customerId: number;
  private interval: number;
  private openIncident: number | null = null;
  private perLocation: Record<string, LocationAlertState> = {};
  private reminderAt: Date | null = null;
  private readonly conditions: { ssl: ConditionState | null; dnsbl: ConditionState | null } = { ssl: null, dnsbl: null };
  private changedAt: Date;
  private held: { root: number; since: Date } | null = null;

  constructor(props: { monitorId: number; organizationId: number; customerId: number; checkIntervalSeconds: number; now: Date }) {
    this.monitorId = props.monitorId;
    this.organizationId = props.organizationId;
    this.customerId = props.customerId;
    this.interval = props.checkIntervalSeconds;
    this.changedAt = props.now;
  }

  /** A state as it was stored (its repository's rows; the state takes them over). */
  static restore(
    props: ConstructorParameters<typeof AlertState>[0] & {
      openIncidentId: number | null;
      locations: Record<string, LocationAlertState>;
      lastReminderAt: Date | null;
      sslExpiry: ConditionState | null;
      dnsbl: ConditionState | null;
      dependencyRootId?: number | null;
      dependencyHeldSince?: Date | null;
    },
  ): AlertState {
    const state = new AlertState(props);
    state.openIncident = props.openIncidentId;
    state.perLocation = props.locations;
    state.reminderAt = props.lastReminderAt;
    state.conditions.ssl = props.sslExpiry;
    state.conditions.dnsbl = props.dnsbl;
    if (props.dependencyRootId != null) state.held = { root: props.dependencyRootId, since: props.dependencyHeldSince ?? props.now };
    return state;
  }

  get checkIntervalSeconds(): number {
    return this.interval;
  }
  /** The monitor's open automatic incident, as far as the rules know. */
  get openIncidentId(): number | null {
    return this.openIncident;
  }
  get locations(): Readonly<Record<string, Readonly<LocationAlertState>>> {
    return this.perLocation;
  }
  get lastReminderAt(): Date | null {
    return this.reminderAt;
  }
  get sslExpiry(): Readonly<ConditionState> | null {
    return this.conditions.ssl;
  }
  get dnsbl(): Readonly<ConditionState> | null {
    return this.conditions.dnsbl;
  }
  get updatedAt(): Date {
    return this.changedAt;
  }
  /** The root monitor whose outage holds this failing monitor's own incident back (dependencyDown), if any. */
  get dependencyRootId(): number | null {
    return this.held?.root ?? null;
  }
  get dependencyHeldSince(): Date | null {
    return this.held?.since ?? null;
  }
  /** Down or being confirmed down: an incident is open, a dependency holds it, or a location's last result failed. */
  get isFailing(): boolean {
    return this.openIncident !== null || this.held !== null || Object.values(this.perLocation).some((l) => l.lastStatus === 'down');
  }

  /** The incident the state names was closed outside the rules (resolved by hand, merged, gone): a new outage opens another. */
  incidentClosedElsewhere(): void {
    this.openIncident = null;
  }

  /** The monitor's interval as it is now (it may have changed since the state was written); reminders and staleness follow it. */
  followInterval(seconds: number): void {
    this.interval = seconds;
  }

  location(code: string): { status: CheckStatus; reasonCode: string | null; lastCheckedAt: Date } | undefined {
    const state = this.locations[code];
    if (!state) return undefined;
    return { status: state.lastStatus, reasonCode: state.lastReasonCode, lastCheckedAt: new Date(state.lastCheckedAt) };
  }

  /**
   * An up result of a location that is already up, while no incident is open and no reminder series
   * runs, changes nothing the rules act on: it may be stored without taking the monitor's lock
   * (the engine batches these, detail samples included).
   */
  isSteady(location: string, status: CheckStatus): boolean {
    if (status !== 'up' || this.openIncidentId !== null || this.sslExpiry !== null || this.dnsbl !== null) return false;
    return this.locations[location]?.lastStatus === 'up';
  }

  observe(observation: AlertObservation, policy: AlertPolicy, context: ObserveContext): AlertDecision[] {
    const { location, status, checkedAt } = observation;
    const previous = this.locations[location];
    if (previous && checkedAt.getTime() <= new Date(previous.lastCheckedAt).getTime()) return [];
    const failures = status === 'down' ? (previous?.consecutiveFailures ?? 0) + 1 : 0;
    this.perLocation[location] = {
      consecutiveFailures: failures,
      // Failures inside a maintenance window count toward the streak, but an outage starts with the
      // first failure outside it: the incident opened after the window starts there.
      failingSince:
        failures === 0 || context.suppressed
          ? null
          : failures === 1
            ? checkedAt.toISOString()
            : (previous!.failingSince ?? checkedAt.toISOString()),
      lastStatus: status,
      lastReasonCode: observation.reasonCode,
      lastCheckedAt: checkedAt.toISOString(),
    };
    this.changedAt = checkedAt;
    return [
      ...this.outageDecisions(observation, previous?.lastStatus, policy, context),
      ...this.conditionDecision('ssl', SSL_EXPIRY_REASON_CODES, observation, policy.sslExpiryReminderDays, context),
      ...this.conditionDecision('dnsbl', DNSBL_REASON_CODES, observation, policy.dnsblReminderDays, context),
    ];
  }

  /** The use case opened the automatic incident the rules asked for. */
  incidentOpened(incidentId: number, at: Date): void {
    this.openIncident = incidentId;
    this.reminderAt = at;
  }

  private outageDecisions(
    observation: AlertObservation,
    previousStatus: CheckStatus | undefined,
    policy: AlertPolicy,
    context: ObserveContext,
  ): AlertDecision[] {
    const quorum = quorumOf(policy, Object.keys(this.locations), context.live);
    if (!quorum.configured.includes(observation.location)) return [];
    const { required, voting, silent } = quorum;
    const failuresOf = (code: string) => this.locations[code]?.consecutiveFailures ?? 0;
    if (this.openIncidentId === null) {
      // Too few live locations to decide: nothing opens (the monitor is unknown, not down).
      const failing = voting.filter((code) => failuresOf(code) >= Math.max(1, policy.consecutiveChecks));
      if (!quorum.decidable || context.suppressed || failing.length < required) {
        this.held = null;
        return [];
      }
      // Its failures are confirmed, but a dependency is down: the root's incident tells it (dependencyDown).
      const root = context.dependencyRoot ?? null;
      if (root !== null && root !== this.monitorId) {
        if (this.held?.root !== root) this.held = { root, since: observation.checkedAt };
        return [];
      }
      // Its root recovered: a failure opens it at once (its failures were confirmed), but a location
      // coming back up does not, while the others are checked again (they may have recovered with the root).
      if (this.held !== null && observation.status !== 'down') return [];
      this.held = null;
      // A location whose last failures all fell inside a maintenance window has no start yet: the
      // outage started at the earliest failure seen outside it (this result's, at the latest).
      const startedAt = failing
        .map((code) => this.locations[code]!.failingSince)
        .map((since) => (since === null ? observation.checkedAt : new Date(since)))
        .reduce((earliest, at) => (at.getTime() < earliest.getTime() ? at : earliest), observation.checkedAt);
      return [{ kind: 'open', startedAt, failingLocations: failing }];
    }
    // An open incident resolves only when the silent locations could not keep it open: fewer than
    // required would still fail even if every silent location did. Undecidable: it stays open.
    const stillDown = voting.filter((code) => failuresOf(code) >= 1);
    if (quorum.decidable && stillDown.length + silent.length < required) {
      this.openIncident = null;
      this.reminderAt = null;
      return [{ kind: 'resolve' }];
    }
    const decisions: AlertDecision[] = [];
    if (previousStatus !== observation.status) {
      decisions.push({ kind: 'locationReport', location: observation.location, status: observation.status });
    }
    if (context.suppressed || !quorum.decidable) {
      // The reminder clock runs on silently through maintenance: a monitor that was already down when the
      // window began is not announced again the moment it ends, only a full interval later (or on a change).
      // An undecidable monitor is not announced as still down either: it is unknown.
      this.reminderAt = observation.checkedAt;
      return decisions;
    }
    const reminderMs = policy.reminderIntervalMinutes * 60_000;
    const last = this.lastReminderAt?.getTime() ?? 0;
    if (reminderMs > 0 && !context.remindersMuted && observation.checkedAt.getTime() - last >= reminderMs) {
      this.reminderAt = observation.checkedAt;
      decisions.push({ kind: 'remind' });
    }
    return decisions;
  }

  private conditionDecision(
    which: 'ssl' | 'dnsbl',
    codes: readonly string[],
    observation: AlertObservation,
    reminderDays: number | null,
    context: ObserveContext,
  ): AlertDecision[] {
    const holds = observation.reasonCode !== null && codes.includes(observation.reasonCode);
    if (!holds) {
      if (observation.status === 'up') this.conditions[which] = null;
      return [];
    }
    const condition = (this.conditions[which] ??= { since: observation.checkedAt.toISOString(), lastNotifiedAt: null });
    const last = condition.lastNotifiedAt === null ? null : new Date(condition.lastNotifiedAt).getTime();
    // A certificate that expires is a change of its own (certificate.expired), announced at once,
    // not at the next reminder of its approach; a renewal to another expiring certificate re-arms it.
    const expired = which === 'ssl' && observation.reasonCode === 'sslExpired';
    if (which === 'ssl' && !expired) condition.expiredNotified = false;
    const newlyExpired = expired && condition.expiredNotified !== true;
    if (context.suppressed) {
      // As with outages: a condition announced before the window is not repeated the moment it ends
      // (an expiry first seen inside the window is still announced after it).
      if (last !== null) condition.lastNotifiedAt = observation.checkedAt.toISOString();
      return [];
    }
    const due =
      last === null ||
      newlyExpired ||
      (reminderDays !== null && reminderDays > 0 && observation.checkedAt.getTime() - last >= reminderDays * DAY_MS);
    if (!due) return [];
    condition.lastNotifiedAt = observation.checkedAt.toISOString();
    if (expired) {
      condition.expiredNotified = true;
      return [{ kind: 'sslExpired', since: new Date(condition.since), first: newlyExpired }];
    }
    const decision = { since: new Date(condition.since), first: last === null };
    return [which === 'ssl' ? { kind: 'sslExpiryReminder', ...decision } : { kind: 'dnsblReminder', ...decision }];
  }
}
