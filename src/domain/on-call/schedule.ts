import { AppError } from '../shared/app-error';
import type { RotationLayer } from './rotation';
import { parseClock } from './wall-clock';

/** A span in which one user is on call instead of whoever the layers say. */
export interface ScheduleOverride {
  readonly id: string;
  readonly userId: string;
  readonly start: Date;
  readonly end: Date;
  readonly createdAt: Date;
}

/** What the on-call resolver needs of a schedule. */
export interface ScheduleDefinition {
  readonly timezone: string;
  /** Lowest first: a later layer covers the ones before it wherever it has someone on call. */
  readonly layers: readonly RotationLayer[];
  /** When overrides overlap, the one created last wins. */
  readonly overrides: readonly ScheduleOverride[];
}

export interface ScheduleProps extends ScheduleDefinition {
  readonly id: string;
  readonly organizationId: number;
  readonly teamId: string;
  readonly name: string;
  readonly description: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly version: number;
}

export type ScheduleChange = Partial<Pick<ScheduleProps, 'teamId' | 'name' | 'description' | 'timezone' | 'layers'>>;

type Issue = { path: (string | number)[]; message: string; code: 'custom' };

/** Rules a layer must keep whatever the edge let through: users to rotate, an end after the start, readable restrictions. */
export function assertLayers(layers: readonly RotationLayer[]): void {
  const issues: Issue[] = [];
  layers.forEach((layer, i) => {
    const at = (...path: (string | number)[]) => ['layers', i, ...path];
    if (layer.users.length === 0) issues.push({ path: at('users'), message: 'A layer needs at least one user', code: 'custom' });
    if (layer.endsAt && layer.endsAt <= layer.startsAt) {
      issues.push({ path: at('endsAt'), message: 'Must be after startsAt', code: 'custom' });
    }
    if (layer.rotationType === 'custom' && !layer.shiftLength) {
      issues.push({ path: at('shiftLength'), message: 'A custom rotation needs a shiftLength', code: 'custom' });
    }
    layer.restrictions.forEach((r, j) => {
      if (parseClock(r.startTime) === null || parseClock(r.endTime) === null) {
        issues.push({ path: at('restrictions', j), message: 'Times are HH:mm', code: 'custom' });
      }
      if (r.daysOfWeek.length === 0 || r.daysOfWeek.some((d) => !Number.isInteger(d) || d < 1 || d > 7)) {
        issues.push({ path: at('restrictions', j, 'daysOfWeek'), message: 'ISO weekdays 1 (Monday) to 7 (Sunday)', code: 'custom' });
      }
    });
  });
  if (issues.length) throw new AppError('validationFailed', { issues });
}

/** An on-call schedule of a team: rotation layers in a time zone, plus overrides. */
export class Schedule implements ScheduleDefinition {
  readonly id: string;
  readonly organizationId: number;
  teamId: string;
  name: string;
  description: string | null;
  timezone: string;
  layers: readonly RotationLayer[];
  overrides: ScheduleOverride[];
  readonly createdAt: Date;
  updatedAt: Date;
  version: number;

  constructor(props: ScheduleProps) {
    this.id = props.id;
    this.organizationId = props.organizationId;
    this.teamId = props.teamId;
    this.name = props.name;
    this.description = props.description;
    this.timezone = props.timezone;
    this.layers = props.layers;
    this.overrides = [...props.overrides];
    this.createdAt = props.createdAt;
    this.updatedAt = props.updatedAt;
    this.version = props.version;
  }

  static create(props: Omit<ScheduleProps, 'createdAt' | 'updatedAt' | 'version' | 'overrides'>, now: Date): Schedule {
    assertLayers(props.layers);
    return new Schedule({ ...props, overrides: [], createdAt: now, updatedAt: now, version: 1 });
  }

  change(change: ScheduleChange, now: Date): void {
    if (change.layers) assertLayers(change.layers);
    if (change.teamId !== undefined) this.teamId = change.teamId;
    if (change.name !== undefined) this.name = change.name;
    if (change.description !== undefined) this.description = change.description;
    if (change.timezone !== undefined) this.timezone = change.timezone;
    if (change.layers !== undefined) this.layers = change.layers;
    this.updatedAt = now;
  }

  addOverride(override: ScheduleOverride): void {
    if (override.end <= override.start) {
      throw new AppError('validationFailed', { issues: [{ path: ['end'], message: 'Must be after start', code: 'custom' }] });
    }
    this.overrides.push(override);
  }

  /** False when no override has that id. */
  removeOverride(id: string): boolean {
    const before = this.overrides.length;
    this.overrides = this.overrides.filter((o) => o.id !== id);
    return this.overrides.length < before;
  }

  /** Every user the schedule names, in its layers or its overrides. */
  userIds(): string[] {
    return [...new Set([...this.layers.flatMap((l) => l.users), ...this.overrides.map((o) => o.userId)])];
  }
}
