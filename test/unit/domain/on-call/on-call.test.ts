import { expect } from 'chai';
import type { RotationLayer } from '../../../../src/domain/on-call/rotation';
import { shiftAt } from '../../../../src/domain/on-call/rotation';
import { onCallAt, onCallTimeline } from '../../../../src/domain/on-call/on-call';
import type { ScheduleDefinition, ScheduleOverride } from '../../../../src/domain/on-call/schedule';
import { instantOf, wallTimeAt } from '../../../../src/domain/on-call/wall-clock';

const at = (iso: string) => new Date(iso);
const BERLIN = 'Europe/Berlin';

const aLayer = (overrides: Partial<RotationLayer> = {}): RotationLayer => ({
  name: 'Primary',
  rotationType: 'daily',
  shiftLength: null,
  startsAt: at('2026-03-20T08:00:00Z'),
  endsAt: null,
  users: ['ann', 'bob'],
  restrictions: [],
  ...overrides,
});
const aSchedule = (layers: RotationLayer[], overrides: ScheduleOverride[] = [], timezone = BERLIN): ScheduleDefinition => ({
  timezone,
  layers,
  overrides,
});
const who = (schedule: ScheduleDefinition, iso: string) => onCallAt(schedule, at(iso))?.userId ?? null;
const anOverride = (userId: string, start: string, end: string, createdAt = '2026-01-01T00:00:00Z'): ScheduleOverride => ({
  id: `o-${userId}-${start}`,
  userId,
  start: at(start),
  end: at(end),
  createdAt: at(createdAt),
});

describe('wall clock (Intl time zones)', () => {
  it('reads a skipped spring time forward by the gap and a repeated autumn time as its first occurrence', () => {
    expect(instantOf({ year: 2026, month: 3, day: 29 }, 2 * 60 + 30, BERLIN).toISOString()).to.equal('2026-03-29T01:30:00.000Z');
    expect(instantOf({ year: 2026, month: 10, day: 25 }, 2 * 60 + 30, BERLIN).toISOString()).to.equal('2026-10-25T00:30:00.000Z');
    expect(instantOf({ year: 2026, month: 7, day: 1 }, 9 * 60, BERLIN).toISOString()).to.equal('2026-07-01T07:00:00.000Z');
    expect(wallTimeAt(at('2026-03-29T01:00:00Z'), BERLIN)).to.include({ hour: 3, minute: 0, weekday: 7 });
  });
});

describe('on-call resolver: rotation layers', () => {
  it('hands a daily rotation over at 09:00 Berlin time on both sides of the spring change', () => {
    // Hand-offs at 09:00 local: 2026-03-28 08:00Z (CET) and 2026-03-29 07:00Z (CEST), a 23-hour shift.
    const schedule = aSchedule([aLayer()]);
    const shift = shiftAt(aLayer(), BERLIN, at('2026-03-28T12:00:00Z'))!;
    expect([shift.start.toISOString(), shift.end.toISOString()]).to.deep.equal(['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z']);
    const before = who(schedule, '2026-03-29T06:59:00Z');
    expect(who(schedule, '2026-03-29T07:00:00Z')).to.not.equal(before);
    expect(who(schedule, '2026-03-29T07:30:00Z')).to.equal(who(schedule, '2026-03-30T06:59:00Z'));
  });

  it('hands a daily rotation over at 09:00 Berlin time on both sides of the autumn change (a 25-hour shift)', () => {
    const schedule = aSchedule([aLayer({ startsAt: at('2026-10-20T07:00:00Z') })]);
    const shift = shiftAt(schedule.layers[0]!, BERLIN, at('2026-10-24T12:00:00Z'))!;
    expect([shift.start.toISOString(), shift.end.toISOString()]).to.deep.equal(['2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z']);
    expect(who(schedule, '2026-10-25T07:30:00Z')).to.equal(who(schedule, '2026-10-24T07:00:00Z'));
    expect(who(schedule, '2026-10-25T08:00:00Z')).to.not.equal(who(schedule, '2026-10-25T07:59:59Z'));
  });

  it('keeps a hand-off time that the spring change skips one hour later that day only, and the first 02:30 in autumn', () => {
    const layer = aLayer({ startsAt: at('2026-03-20T01:30:00Z') }); // 02:30 CET
    expect(shiftAt(layer, BERLIN, at('2026-03-29T02:00:00Z'))!.start.toISOString()).to.equal('2026-03-29T01:30:00.000Z');
    expect(shiftAt(layer, BERLIN, at('2026-03-30T02:00:00Z'))!.start.toISOString()).to.equal('2026-03-30T00:30:00.000Z');
    expect(shiftAt(layer, BERLIN, at('2026-10-25T01:00:00Z'))!.start.toISOString()).to.equal('2026-10-25T00:30:00.000Z');
  });

  it('rotates the users in order, weekly on the weekday and time of the first hand-off', () => {
    // Monday 2026-03-02 10:00 CET; three users.
    const layer = aLayer({ rotationType: 'weekly', startsAt: at('2026-03-02T09:00:00Z'), users: ['ann', 'bob', 'cy'] });
    const schedule = aSchedule([layer]);
    expect(who(schedule, '2026-03-02T09:00:00Z')).to.equal('ann');
    expect(who(schedule, '2026-03-09T08:59:00Z')).to.equal('ann');
    expect(who(schedule, '2026-03-09T09:00:00Z')).to.equal('bob');
    expect(who(schedule, '2026-03-30T08:00:00Z')).to.equal('bob'); // Monday 10:00 CEST, fifth week
    expect(who(schedule, '2026-03-30T07:59:00Z')).to.equal('ann');
    expect(who(schedule, '2026-03-02T08:59:00Z')).to.equal(null); // before the layer starts
  });

  it('counts custom shifts in hours as fixed durations, which move in wall time across the change', () => {
    const layer = aLayer({ rotationType: 'custom', shiftLength: { count: 12, unit: 'hours' }, startsAt: at('2026-03-28T07:00:00Z') });
    const shift = shiftAt(layer, BERLIN, at('2026-03-29T12:00:00Z'))!;
    expect(shift.start.toISOString()).to.equal('2026-03-29T07:00:00.000Z');
    expect(wallTimeAt(shift.start, BERLIN).hour).to.equal(9); // 08:00 CET became 09:00 CEST
    expect(shift.userId).to.equal('ann');
  });

  it('ends a layer at endsAt', () => {
    const schedule = aSchedule([aLayer({ endsAt: at('2026-03-22T08:00:00Z') })]);
    expect(who(schedule, '2026-03-22T07:59:00Z')).to.equal('bob');
    expect(who(schedule, '2026-03-22T08:00:00Z')).to.equal(null);
  });
});

describe('on-call resolver: restrictions, layers and overrides', () => {
  const nights = aLayer({
    name: 'Nights',
    users: ['nia'],
    restrictions: [{ daysOfWeek: [1, 2, 3, 4, 5], startTime: '22:00', endTime: '06:00' }],
  });

  it('lets a restricted upper layer cover only its hours, the lower layer showing through elsewhere', () => {
    const schedule = aSchedule([aLayer({ users: ['ann'] }), nights]);
    expect(who(schedule, '2026-03-23T20:59:00Z')).to.equal('ann'); // Monday 21:59 CET
    expect(who(schedule, '2026-03-23T21:00:00Z')).to.equal('nia'); // Monday 22:00
    expect(who(schedule, '2026-03-24T04:59:00Z')).to.equal('nia'); // Tuesday 05:59, the Monday span
    expect(who(schedule, '2026-03-24T05:00:00Z')).to.equal('ann');
    expect(who(schedule, '2026-03-28T22:00:00Z')).to.equal('ann'); // Saturday night is not restricted in
    expect(who(schedule, '2026-03-28T04:00:00Z')).to.equal('nia'); // Saturday 05:00 belongs to Friday's span
  });

  it('reads restrictions in local time across the spring change', () => {
    const business = aLayer({ users: ['bea'], restrictions: [{ daysOfWeek: [7, 1], startTime: '09:00', endTime: '17:00' }] });
    const schedule = aSchedule([business]);
    expect(who(schedule, '2026-03-29T07:00:00Z')).to.equal('bea'); // Sunday 09:00 CEST
    expect(who(schedule, '2026-03-29T06:59:00Z')).to.equal(null);
    expect(who(schedule, '2026-03-29T15:00:00Z')).to.equal(null); // 17:00 CEST
  });

  it('puts an override above every layer, and the override created last above earlier ones', () => {
    const overrides = [
      anOverride('oz', '2026-03-23T12:00:00Z', '2026-03-23T23:00:00Z', '2026-03-01T00:00:00Z'),
      anOverride('pat', '2026-03-23T20:00:00Z', '2026-03-23T22:00:00Z', '2026-03-02T00:00:00Z'),
    ];
    const schedule = aSchedule([aLayer({ users: ['ann'] }), nights], overrides);
    expect(who(schedule, '2026-03-23T11:59:00Z')).to.equal('ann');
    expect(who(schedule, '2026-03-23T12:00:00Z')).to.equal('oz');
    expect(who(schedule, '2026-03-23T21:30:00Z')).to.equal('pat');
    expect(who(schedule, '2026-03-23T22:30:00Z')).to.equal('oz');
    expect(who(schedule, '2026-03-23T23:00:00Z')).to.equal('nia');
    expect(onCallAt(schedule, at('2026-03-23T21:30:00Z'))!.source).to.deep.equal({ type: 'override', overrideId: overrides[1]!.id });
  });

  it('builds a timeline of merged spans that agrees with the instant answer, across the spring change', () => {
    const schedule = aSchedule([aLayer(), nights], [anOverride('oz', '2026-03-27T10:00:00Z', '2026-03-27T11:00:00Z')]);
    const from = at('2026-03-26T00:00:00Z');
    const to = at('2026-04-01T00:00:00Z');
    const timeline = onCallTimeline(schedule, from, to);
    for (let t = from.getTime(); t < to.getTime(); t += 17 * 60_000) {
      const segment = timeline.find((s) => s.start.getTime() <= t && t < s.end.getTime());
      expect(segment?.userId ?? null, new Date(t).toISOString()).to.equal(who(schedule, new Date(t).toISOString()));
    }
    timeline.slice(1).forEach((s, i) => {
      const previous = timeline[i]!;
      expect(previous.end <= s.start).to.equal(true);
      const touching = previous.end.getTime() === s.start.getTime();
      if (touching) expect([previous.userId, previous.source]).to.not.deep.equal([s.userId, s.source]);
    });
    const sunday = timeline.find((s) => s.start.toISOString() === '2026-03-29T07:00:00.000Z' && s.source.type === 'layer');
    expect(sunday?.end.toISOString()).to.equal('2026-03-30T07:00:00.000Z');
  });
});
