import { expect } from 'chai';
import { Team, assertCanCreateTeam } from '../../../../src/domain/on-call/teams';
import { Schedule } from '../../../../src/domain/on-call/schedule';
import type { RotationLayer } from '../../../../src/domain/on-call/rotation';
import { codeOf } from '../../../support/expect-app-error';

const now = new Date('2026-06-01T00:00:00Z');
const aTeam = () =>
  Team.create(
    {
      id: 't',
      organizationId: 1,
      name: 'Platform',
      description: null,
      members: [
        { userId: 'ada', imRole: 'admin' },
        { userId: 'max', imRole: 'member' },
        { userId: 'max', imRole: 'member' },
      ],
    },
    now,
  );
const layer: RotationLayer = {
  name: 'L',
  rotationType: 'daily',
  shiftLength: null,
  startsAt: now,
  endsAt: null,
  users: ['ada'],
  restrictions: [],
};

describe('team rules', () => {
  it("lets organization admins and the team's admins write it, and refuses plain members and outsiders", () => {
    const team = aTeam();
    expect(codeOf(() => team.assertWritableBy({ userId: 'zed', isOrgAdmin: true }))).to.equal(undefined);
    expect(codeOf(() => team.assertWritableBy({ userId: 'ada', isOrgAdmin: false }))).to.equal(undefined);
    expect(codeOf(() => team.assertWritableBy({ userId: 'max', isOrgAdmin: false }))).to.equal('imTeamWriteDenied');
    expect(codeOf(() => team.assertWritableBy({ userId: null, isOrgAdmin: false }))).to.equal('imTeamWriteDenied');
    expect(codeOf(() => assertCanCreateTeam({ userId: 'ada', isOrgAdmin: false }))).to.equal('imTeamWriteDenied');
  });

  it('keeps one membership per user; setting a member again changes their imRole', () => {
    const team = aTeam();
    expect(team.members).to.have.length(2);
    team.setMember({ userId: 'max', imRole: 'admin' }, now);
    expect(team.isAdmin('max')).to.equal(true);
    expect(team.members).to.have.length(2);
    expect(team.removeMember('max', now)).to.equal(true);
    expect(team.removeMember('max', now)).to.equal(false);
  });
});

describe('schedule rules', () => {
  const base = { id: 's', organizationId: 1, teamId: 't', name: 'Primary', description: null, timezone: 'UTC' };

  it('refuses a layer without users, an end not after its start, a custom rotation without length, bad restrictions', () => {
    const bad = (change: Partial<RotationLayer>) => codeOf(() => Schedule.create({ ...base, layers: [{ ...layer, ...change }] }, now));
    expect(bad({ users: [] })).to.equal('validationFailed');
    expect(bad({ endsAt: now })).to.equal('validationFailed');
    expect(bad({ rotationType: 'custom' })).to.equal('validationFailed');
    expect(bad({ restrictions: [{ daysOfWeek: [8], startTime: '09:00', endTime: '17:00' }] })).to.equal('validationFailed');
    expect(bad({ restrictions: [{ daysOfWeek: [1], startTime: '9:00', endTime: '17:00' }] })).to.equal('validationFailed');
    expect(bad({})).to.equal(undefined);
  });

  it('refuses an override that does not end after it starts, and removes overrides by id', () => {
    const schedule = Schedule.create({ ...base, layers: [layer] }, now);
    const override = { id: 'o1', userId: 'max', start: now, end: now, createdAt: now };
    expect(codeOf(() => schedule.addOverride(override))).to.equal('validationFailed');
    schedule.addOverride({ ...override, end: new Date(now.getTime() + 3_600_000) });
    expect(schedule.userIds()).to.deep.equal(['ada', 'max']);
    expect(schedule.removeOverride('o1')).to.equal(true);
    expect(schedule.removeOverride('o1')).to.equal(false);
  });
});
