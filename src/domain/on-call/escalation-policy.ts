import { AppError } from '../shared/app-error';

export const ESCALATION_TARGET_TYPES = ['user', 'schedule', 'team'] as const;
export type EscalationTargetType = (typeof ESCALATION_TARGET_TYPES)[number];

/** Whom a level pages: a user, whoever is on call in a schedule, or a team (see escalation.ts). */
export interface EscalationTarget {
  readonly type: EscalationTargetType;
  readonly id: string;
}

/** A level is paged, then given `delayMinutes` to acknowledge before the next level is paged. */
export interface EscalationLevel {
  readonly delayMinutes: number;
  readonly targets: readonly EscalationTarget[];
}

export const MAX_REPEATS = 9;

export interface EscalationPolicyProps {
  readonly id: string;
  readonly organizationId: number;
  readonly name: string;
  readonly description: string | null;
  readonly levels: readonly EscalationLevel[];
  /** How many more times the whole chain runs after its last level's delay passes unacknowledged. */
  readonly repeatCount: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly version: number;
}

export type EscalationPolicyChange = Partial<Pick<EscalationPolicyProps, 'name' | 'description' | 'levels' | 'repeatCount'>>;

function assertShape(levels: readonly EscalationLevel[], repeatCount: number): void {
  const issues: { path: (string | number)[]; message: string; code: 'custom' }[] = [];
  if (levels.length === 0) issues.push({ path: ['levels'], message: 'A policy needs at least one level', code: 'custom' });
  levels.forEach((level, i) => {
    if (!Number.isInteger(level.delayMinutes) || level.delayMinutes < 1) {
      issues.push({ path: ['levels', i, 'delayMinutes'], message: 'Whole minutes, at least 1', code: 'custom' });
    }
    if (level.targets.length === 0) issues.push({ path: ['levels', i, 'targets'], message: 'A level needs a target', code: 'custom' });
  });
  if (!Number.isInteger(repeatCount) || repeatCount < 0 || repeatCount > MAX_REPEATS) {
    issues.push({ path: ['repeatCount'], message: `0 to ${MAX_REPEATS}`, code: 'custom' });
  }
  if (issues.length) throw new AppError('validationFailed', { issues });
}

/** An escalation policy: levels paged one after the other until someone acknowledges. */
export class EscalationPolicy {
  readonly id: string;
  readonly organizationId: number;
  name: string;
  description: string | null;
  levels: readonly EscalationLevel[];
  repeatCount: number;
  readonly createdAt: Date;
  updatedAt: Date;
  version: number;

  constructor(props: EscalationPolicyProps) {
    this.id = props.id;
    this.organizationId = props.organizationId;
    this.name = props.name;
    this.description = props.description;
    this.levels = props.levels;
    this.repeatCount = props.repeatCount;
    this.createdAt = props.createdAt;
    this.updatedAt = props.updatedAt;
    this.version = props.version;
  }

  static create(props: Omit<EscalationPolicyProps, 'createdAt' | 'updatedAt' | 'version'>, now: Date): EscalationPolicy {
    assertShape(props.levels, props.repeatCount);
    return new EscalationPolicy({ ...props, createdAt: now, updatedAt: now, version: 1 });
  }

  change(change: EscalationPolicyChange, now: Date): void {
    assertShape(change.levels ?? this.levels, change.repeatCount ?? this.repeatCount);
    if (change.name !== undefined) this.name = change.name;
    if (change.description !== undefined) this.description = change.description;
    if (change.levels !== undefined) this.levels = change.levels;
    if (change.repeatCount !== undefined) this.repeatCount = change.repeatCount;
    this.updatedAt = now;
  }

  targets(): EscalationTarget[] {
    return this.levels.flatMap((l) => l.targets);
  }
}
