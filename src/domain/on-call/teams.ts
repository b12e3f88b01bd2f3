import { AppError } from '../shared/app-error';

/** A member's role inside one team: team admins manage the team's membership and schedules. */
export const IM_ROLES = ['admin', 'member'] as const;
export type ImRole = (typeof IM_ROLES)[number];

export interface TeamMember {
  readonly userId: string;
  readonly imRole: ImRole;
}

export interface TeamProps {
  readonly id: string;
  readonly organizationId: number;
  readonly name: string;
  readonly description: string | null;
  readonly members: readonly TeamMember[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly version: number;
}

/** Who asks to change a team, as the team rules see them. */
export interface TeamWriter {
  readonly userId: string | null;
  /** An organization administrator (organization-wide) or a platform admin. */
  readonly isOrgAdmin: boolean;
}

/** An incident-management team: people who share schedules and incidents. */
export class Team {
  readonly id: string;
  readonly organizationId: number;
  name: string;
  description: string | null;
  members: TeamMember[];
  readonly createdAt: Date;
  updatedAt: Date;
  version: number;

  constructor(props: TeamProps) {
    this.id = props.id;
    this.organizationId = props.organizationId;
    this.name = props.name;
    this.description = props.description;
    this.members = [...props.members];
    this.createdAt = props.createdAt;
    this.updatedAt = props.updatedAt;
    this.version = props.version;
  }

  static create(props: Omit<TeamProps, 'createdAt' | 'updatedAt' | 'version'>, now: Date): Team {
    return new Team({ ...props, members: dedupe(props.members), createdAt: now, updatedAt: now, version: 1 });
  }

  memberOf(userId: string | null): TeamMember | null {
    return userId === null ? null : (this.members.find((m) => m.userId === userId) ?? null);
  }

  isAdmin(userId: string | null): boolean {
    return this.memberOf(userId)?.imRole === 'admin';
  }

  /** imTeamWriteDenied unless the caller is an organization admin or an admin of this team. */
  assertWritableBy(writer: TeamWriter): void {
    if (!writer.isOrgAdmin && !this.isAdmin(writer.userId)) throw new AppError('imTeamWriteDenied');
  }

  rename(change: { name?: string; description?: string | null }, now: Date): void {
    if (change.name !== undefined) this.name = change.name;
    if (change.description !== undefined) this.description = change.description;
    this.updatedAt = now;
  }

  /** Adds the user or changes their imRole. */
  setMember(member: TeamMember, now: Date): void {
    this.members = dedupe([...this.members, member]);
    this.updatedAt = now;
  }

  /** False when the user was not a member. */
  removeMember(userId: string, now: Date): boolean {
    const before = this.members.length;
    this.members = this.members.filter((m) => m.userId !== userId);
    this.updatedAt = now;
    return this.members.length < before;
  }
}

/** Only organization admins create teams (there is no team yet whose admin could). */
export function assertCanCreateTeam(writer: TeamWriter): void {
  if (!writer.isOrgAdmin) throw new AppError('imTeamWriteDenied');
}

/** One membership per user (the last given wins), in user id order as stored. */
function dedupe(members: readonly TeamMember[]): TeamMember[] {
  const byUser = new Map<string, TeamMember>();
  for (const m of members) byUser.set(m.userId, m);
  return [...byUser.values()].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
}
