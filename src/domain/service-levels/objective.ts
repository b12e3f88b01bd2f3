import { AppError } from '../shared/app-error';

/** How long an objective looks back: a rolling window of days, or the calendar month so far. */
export const OBJECTIVE_WINDOWS = ['rolling7d', 'rolling28d', 'rolling30d', 'calendarMonth'] as const;
export type ObjectiveWindow = (typeof OBJECTIVE_WINDOWS)[number];

/** What an objective covers: one monitor, or a customer's monitors (all, or those carrying a tag). */
export type ObjectiveSubject =
  | { readonly type: 'monitor'; readonly monitorId: number; readonly monitorPublicId: string }
  | { readonly type: 'customer'; readonly customerId: number; readonly tagId: number | null };

/** Whether the objective's budget is burning fast now (as the last evaluation found). */
export type BurnState = 'ok' | 'burning';

export interface ObjectiveDefinition {
  readonly name: string;
  /** Percent of known time that must be good, e.g. 99.9. */
  readonly target: number;
  readonly window: ObjectiveWindow;
  /** IANA zone the calendar month is counted in. */
  readonly timezone: string;
  readonly subject: ObjectiveSubject;
  /** Burn-rate alerts go to the notification channels. */
  readonly alertsEnabled: boolean;
}

export interface ObjectiveProps extends ObjectiveDefinition {
  id: number;
  readonly publicId: string;
  readonly organizationId: number;
  /** The customer the objective belongs to (a monitor's customer or the customer named); never null. */
  readonly customerId: number;
  burnState: BurnState;
  burnChangedAt: Date | null;
  readonly createdAt: Date;
  updatedAt: Date;
  version: number;
}

/** Lowest and highest target accepted: below 50 % an "objective" is no promise; 100 % leaves no budget. */
export const MIN_TARGET = 50;
export const MAX_TARGET = 99.999;

/** A target must leave some budget and keep at most three decimals. */
export function assertTarget(target: number): void {
  const thousandths = Math.round(target * 1000);
  if (!Number.isFinite(target) || target < MIN_TARGET || target > MAX_TARGET || Math.abs(thousandths - target * 1000) > 1e-6)
    throw new AppError('invalidServiceLevelObjective', { field: 'target', min: MIN_TARGET, max: MAX_TARGET });
}

/**
 * A service level objective: a target share of good time over a window, for one monitor or a
 * customer's monitors. Its burn state is what the last burn-rate evaluation decided.
 */
export class ServiceLevelObjective {
  id: number;
  readonly publicId: string;
  readonly organizationId: number;
  customerId: number;
  name: string;
  target: number;
  window: ObjectiveWindow;
  timezone: string;
  subject: ObjectiveSubject;
  alertsEnabled: boolean;
  burnState: BurnState;
  burnChangedAt: Date | null;
  readonly createdAt: Date;
  updatedAt: Date;
  version: number;

  constructor(props: ObjectiveProps) {
    this.id = props.id;
    this.publicId = props.publicId;
    this.organizationId = props.organizationId;
    this.customerId = props.customerId;
    this.name = props.name;
    this.target = props.target;
    this.window = props.window;
    this.timezone = props.timezone;
    this.subject = props.subject;
    this.alertsEnabled = props.alertsEnabled;
    this.burnState = props.burnState;
    this.burnChangedAt = props.burnChangedAt;
    this.createdAt = props.createdAt;
    this.updatedAt = props.updatedAt;
    this.version = props.version;
  }

  static create(
    input: ObjectiveDefinition & { publicId: string; organizationId: number; customerId: number },
    now: Date,
  ): ServiceLevelObjective {
    assertTarget(input.target);
    return new ServiceLevelObjective({ ...input, id: 0, burnState: 'ok', burnChangedAt: null, createdAt: now, updatedAt: now, version: 1 });
  }

  /** A change of definition; a new subject or target starts the burn state afresh (the old alert no longer applies). */
  change(change: Partial<ObjectiveDefinition> & { customerId?: number }, now: Date): void {
    if (change.target !== undefined) assertTarget(change.target);
    const restart = (change.target !== undefined && change.target !== this.target) || change.subject !== undefined;
    Object.assign(this, Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)));
    if (restart && this.burnState !== 'ok') {
      this.burnState = 'ok';
      this.burnChangedAt = now;
    }
    this.updatedAt = now;
  }

  /** The allowed share of bad time, as a fraction (0.001 for 99.9 %). */
  get budgetFraction(): number {
    return (100 - this.target) / 100;
  }
}
