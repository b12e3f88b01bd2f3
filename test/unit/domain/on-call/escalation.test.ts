import { expect } from 'chai';
import { EscalationPolicy, type EscalationLevel } from '../../../../src/domain/on-call/escalation-policy';
import { escalationProgress, escalationSteps, whomToPage, type EscalationDirectory } from '../../../../src/domain/on-call/escalation';
import type { ScheduleDefinition } from '../../../../src/domain/on-call/schedule';
import { codeOf } from '../../../support/expect-app-error';

const at = (iso: string) => new Date(iso);
const opened = at('2026-06-01T10:00:00Z');
const levels: EscalationLevel[] = [
  { delayMinutes: 5, targets: [{ type: 'user', id: 'ann' }] },
  { delayMinutes: 10, targets: [{ type: 'schedule', id: 'sched-1' }] },
];
const plan = { levels, repeatCount: 1 };
const open = { openedAt: opened, acknowledgedAt: null, resolvedAt: null };
const iso = (d: Date | undefined | null) => d?.toISOString() ?? null;

describe('escalation policy', () => {
  it('refuses a policy without levels, a level without targets, a delay under a minute and over 9 repeats', () => {
    const base = { id: 'p', organizationId: 1, name: 'Default', description: null };
    const now = opened;
    expect(codeOf(() => EscalationPolicy.create({ ...base, levels: [], repeatCount: 0 }, now))).to.equal('validationFailed');
    expect(codeOf(() => EscalationPolicy.create({ ...base, levels: [{ delayMinutes: 5, targets: [] }], repeatCount: 0 }, now))).to.equal(
      'validationFailed',
    );
    expect(codeOf(() => EscalationPolicy.create({ ...base, levels: [{ ...levels[0]!, delayMinutes: 0 }], repeatCount: 0 }, now))).to.equal(
      'validationFailed',
    );
    expect(codeOf(() => EscalationPolicy.create({ ...base, levels, repeatCount: 10 }, now))).to.equal('validationFailed');
    const policy = EscalationPolicy.create({ ...base, levels, repeatCount: 9 }, now);
    expect(codeOf(() => policy.change({ levels: [] }, now))).to.equal('validationFailed');
    expect(policy.levels).to.have.length(2);
  });
});

describe('escalation steps', () => {
  it('pages level 1 at the opening, level 2 its delay later, and the chain again repeatCount times', () => {
    const steps = escalationSteps(plan, opened);
    expect(steps.map((s) => [s.cycle, s.level, iso(s.dueAt)])).to.deep.equal([
      [0, 0, '2026-06-01T10:00:00.000Z'],
      [0, 1, '2026-06-01T10:05:00.000Z'],
      [1, 0, '2026-06-01T10:15:00.000Z'],
      [1, 1, '2026-06-01T10:20:00.000Z'],
    ]);
  });

  it("has fired level 1 only and level 2 next before level 1's delay passes", () => {
    const progress = escalationProgress(plan, open, at('2026-06-01T10:04:59Z'));
    expect(progress.fired.map((s) => s.level)).to.deep.equal([0]);
    expect([progress.next?.level, iso(progress.next?.dueAt)]).to.deep.equal([1, '2026-06-01T10:05:00.000Z']);
    expect(progress.stoppedAt).to.equal(null);
  });

  it('has fired level 2 once its delay has passed', () => {
    const progress = escalationProgress(plan, open, at('2026-06-01T10:05:00Z'));
    expect(progress.fired.map((s) => s.level)).to.deep.equal([0, 1]);
    expect(iso(progress.next?.dueAt)).to.equal('2026-06-01T10:15:00.000Z');
  });

  it('stops the moment someone acknowledges: no later step fires and none is next', () => {
    const acked = { ...open, acknowledgedAt: at('2026-06-01T10:03:00Z') };
    const progress = escalationProgress(plan, acked, at('2026-06-01T11:00:00Z'));
    expect(progress.fired.map((s) => s.step)).to.deep.equal([0]);
    expect(progress.next).to.equal(null);
    expect(iso(progress.stoppedAt)).to.equal('2026-06-01T10:03:00.000Z');
  });

  it('does not fire a step due at the very instant of the acknowledgement, and stops on resolution too', () => {
    const acked = { ...open, acknowledgedAt: at('2026-06-01T10:05:00Z') };
    expect(escalationProgress(plan, acked, at('2026-06-01T10:06:00Z')).fired).to.have.length(1);
    const resolved = { ...open, resolvedAt: at('2026-06-01T10:16:00Z') };
    const progress = escalationProgress(plan, resolved, at('2026-06-01T12:00:00Z'));
    expect(progress.fired.map((s) => s.step)).to.deep.equal([0, 1, 2]);
    expect(progress.next).to.equal(null);
  });

  it('is exhausted after the last repeat', () => {
    const progress = escalationProgress(plan, open, at('2026-06-02T00:00:00Z'));
    expect(progress.fired).to.have.length(4);
    expect(progress.next).to.equal(null);
  });
});

describe('whom a step pages', () => {
  const rota: ScheduleDefinition = {
    timezone: 'UTC',
    overrides: [],
    layers: [
      {
        name: 'L',
        rotationType: 'daily',
        shiftLength: null,
        startsAt: at('2026-06-01T00:00:00Z'),
        endsAt: null,
        users: ['sam', 'sue'],
        restrictions: [],
      },
    ],
  };
  const empty: ScheduleDefinition = { timezone: 'UTC', overrides: [], layers: [] };
  const directory: EscalationDirectory = {
    schedules: new Map([
      ['sched-1', rota],
      ['sched-empty', empty],
    ]),
    teams: new Map([
      ['team-on-call', { memberIds: ['tim', 'tom'], scheduleIds: ['sched-1'] }],
      ['team-no-rota', { memberIds: ['tim', 'tom'], scheduleIds: ['sched-empty'] }],
    ]),
  };

  it('pages users directly, the person on call for a schedule, each user once', () => {
    const targets = [
      { type: 'user', id: 'ann' },
      { type: 'schedule', id: 'sched-1' },
      { type: 'user', id: 'ann' },
    ] as const;
    expect(whomToPage(targets, directory, at('2026-06-02T12:00:00Z'))).to.deep.equal(['ann', 'sue']);
  });

  it("pages a team's on-call people, or every member when its schedules have nobody on call", () => {
    expect(whomToPage([{ type: 'team', id: 'team-on-call' }], directory, at('2026-06-01T12:00:00Z'))).to.deep.equal(['sam']);
    expect(whomToPage([{ type: 'team', id: 'team-no-rota' }], directory, at('2026-06-01T12:00:00Z'))).to.deep.equal(['tim', 'tom']);
  });

  it('pages nobody for targets deleted since and for a schedule with nobody on call', () => {
    const targets = [
      { type: 'team', id: 'gone' },
      { type: 'schedule', id: 'gone' },
      { type: 'schedule', id: 'sched-empty' },
    ] as const;
    expect(whomToPage(targets, directory, at('2026-06-01T12:00:00Z'))).to.deep.equal([]);
  });
});
