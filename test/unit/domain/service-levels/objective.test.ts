import { expect } from 'chai';
import { ServiceLevelObjective, assertTarget } from '../../../../src/domain/service-levels/objective';
import { windowSpan } from '../../../../src/domain/service-levels/objective-window';
import { codeOf } from '../../../support/expect-app-error';

const anObjective = (now = new Date('2026-11-10T00:00:00Z')) =>
  ServiceLevelObjective.create(
    {
      publicId: '00000000-0000-4000-8000-000000000001',
      organizationId: 1,
      customerId: 2,
      name: 'API',
      target: 99.9,
      window: 'rolling30d',
      timezone: 'UTC',
      subject: { type: 'customer', customerId: 2, tagId: null },
      alertsEnabled: true,
    },
    now,
  );

describe('service level objective', () => {
  it('takes targets from 50 to 99.999 with at most three decimals', () => {
    for (const ok of [50, 99, 99.9, 99.95, 99.999]) expect(() => assertTarget(ok)).not.to.throw();
    for (const bad of [49.999, 100, 99.9999, Number.NaN]) expect(codeOf(() => assertTarget(bad))).to.equal('invalidServiceLevelObjective');
  });

  it('ends a breach when its target changes, not when it is renamed', () => {
    const objective = anObjective();
    objective.burnState = 'burning';
    objective.change({ name: 'Renamed' }, new Date('2026-11-11T00:00:00Z'));
    expect(objective.burnState).to.equal('burning');
    objective.change({ target: 99.5 }, new Date('2026-11-11T00:00:00Z'));
    expect(objective.burnState).to.equal('ok');
    expect(objective.budgetFraction).to.be.closeTo(0.005, 1e-12);
  });
});

describe('objective windows', () => {
  const now = new Date('2026-03-15T12:00:00Z');

  it('looks back 7, 28 or 30 days for a rolling window', () => {
    expect(windowSpan('rolling7d', 'UTC', now)).to.deep.equal({ from: new Date('2026-03-08T12:00:00Z'), to: now, end: now });
    expect(windowSpan('rolling28d', 'UTC', now).from).to.deep.equal(new Date('2026-02-15T12:00:00Z'));
    expect(windowSpan('rolling30d', 'UTC', now).from).to.deep.equal(new Date('2026-02-13T12:00:00Z'));
  });

  it('counts a calendar month from its first local midnight to the next month’s', () => {
    expect(windowSpan('calendarMonth', 'UTC', now)).to.deep.equal({
      from: new Date('2026-03-01T00:00:00Z'),
      to: now,
      end: new Date('2026-04-01T00:00:00Z'),
    });
    // Berlin is UTC+1 on March 1st and UTC+2 on April 1st (summer time from March 29th).
    expect(windowSpan('calendarMonth', 'Europe/Berlin', now)).to.deep.equal({
      from: new Date('2026-02-28T23:00:00Z'),
      to: now,
      end: new Date('2026-03-31T22:00:00Z'),
    });
  });

  it('puts an instant in the month of its own zone', () => {
    // 23:30 UTC on January 31st is already February 1st in Tokyo.
    const span = windowSpan('calendarMonth', 'Asia/Tokyo', new Date('2026-01-31T23:30:00Z'));
    expect(span.from).to.deep.equal(new Date('2026-01-31T15:00:00Z'));
    expect(span.end).to.deep.equal(new Date('2026-02-28T15:00:00Z'));
  });

  it('starts a month whose first midnight the clocks skip at the first instant of its first day', () => {
    // Asunción went from 00:00 (UTC-4) to 01:00 (UTC-3) on 1 October 2023: October began at 04:00 UTC,
    // not an hour earlier (which was still September 30th there).
    const span = windowSpan('calendarMonth', 'America/Asuncion', new Date('2023-10-15T12:00:00Z'));
    expect(span.from).to.deep.equal(new Date('2023-10-01T04:00:00Z'));
    expect(span.end).to.deep.equal(new Date('2023-11-01T03:00:00Z'));
    expect(windowSpan('calendarMonth', 'America/Asuncion', new Date('2023-09-30T12:00:00Z')).end).to.deep.equal(span.from);
  });

  it('rolls a December into the next year', () => {
    expect(windowSpan('calendarMonth', 'UTC', new Date('2026-12-20T00:00:00Z')).end).to.deep.equal(new Date('2027-01-01T00:00:00Z'));
  });
});
