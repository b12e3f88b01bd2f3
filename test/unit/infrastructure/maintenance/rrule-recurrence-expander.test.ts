import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { RruleRecurrenceExpander } from '../../../../src/infrastructure/maintenance/rrule-recurrence-expander';
import { occurrencesBetween } from '../../../../src/domain/maintenance/occurrences';

const expander = new RruleRecurrenceExpander();
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('RRULE recurrence in an IANA time zone (rrule + luxon)', () => {
  it('keeps a weekly 02:00 Europe/Berlin window at 02:00 local across the March and October changes', () => {
    // Saturdays 02:00-04:00 local: CET (UTC+1) until 29 March 2026, CEST (UTC+2) until 25 October, CET again after.
    const window = {
      startTime: new Date('2026-03-14T01:00:00Z'),
      endTime: new Date('2026-03-14T03:00:00Z'),
      timezone: 'Europe/Berlin',
      rrule: 'FREQ=WEEKLY',
    };
    const march = occurrencesBetween(window, new Date('2026-03-14T00:00:00Z'), new Date('2026-04-05T00:00:00Z'), expander);
    expect(march.map((o) => [o.start.toISOString(), o.end.toISOString()])).to.deep.equal([
      ['2026-03-14T01:00:00.000Z', '2026-03-14T03:00:00.000Z'],
      ['2026-03-21T01:00:00.000Z', '2026-03-21T03:00:00.000Z'],
      ['2026-03-28T01:00:00.000Z', '2026-03-28T03:00:00.000Z'],
      ['2026-04-04T00:00:00.000Z', '2026-04-04T02:00:00.000Z'],
    ]);
    const october = occurrencesBetween(window, new Date('2026-10-17T00:00:00Z'), new Date('2026-11-01T00:00:00Z'), expander);
    expect(iso(october.map((o) => o.start))).to.deep.equal([
      '2026-10-17T00:00:00.000Z',
      '2026-10-24T00:00:00.000Z',
      '2026-10-31T01:00:00.000Z',
    ]);
  });

  it('reads a start inside the spring gap with the offset before it, and a repeated hour as its first occurrence (RFC 5545)', () => {
    // Sundays 02:00 local: 29 March 02:00 does not exist (03:00 CEST = 01:00 UTC); 25 October 02:00 happens twice (first = 00:00 UTC).
    const series = { firstStart: new Date('2026-03-22T01:00:00Z'), rrule: 'RRULE:FREQ=WEEKLY;BYDAY=SU', timezone: 'Europe/Berlin' };
    expect(iso(expander.starts(series, new Date('2026-03-22T00:00:00Z'), new Date('2026-04-06T00:00:00Z'), 10))).to.deep.equal([
      '2026-03-22T01:00:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-04-05T00:00:00.000Z',
    ]);
    expect(iso(expander.starts(series, new Date('2026-10-18T00:00:00Z'), new Date('2026-11-02T00:00:00Z'), 10))).to.deep.equal([
      '2026-10-18T00:00:00.000Z',
      '2026-10-25T00:00:00.000Z',
      '2026-11-01T01:00:00.000Z',
    ]);
  });

  it('honours COUNT from the first start and stops at the limit', () => {
    const series = { firstStart: new Date('2026-01-05T09:00:00Z'), rrule: 'FREQ=DAILY;COUNT=3', timezone: 'UTC' };
    expect(expander.starts(series, new Date('2026-01-01T00:00:00Z'), new Date('2026-02-01T00:00:00Z'), 10)).to.have.length(3);
    expect(
      expander.starts({ ...series, rrule: 'FREQ=HOURLY' }, new Date('2026-01-05T00:00:00Z'), new Date('2027-01-01T00:00:00Z'), 5),
    ).to.have.length(5);
  });

  it('gives the same occurrences of an old series after moving its start forward as a walk from its first start', () => {
    const series = {
      firstStart: new Date('2019-01-07T08:00:00Z'),
      rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR',
      timezone: 'America/New_York',
    };
    const walked = new RruleRecurrenceExpander();
    const year = (y: number) => [new Date(`${y}-01-01T00:00:00Z`), new Date(`${y}-12-31T00:00:00Z`)] as const;
    const moving = new RruleRecurrenceExpander();
    moving.starts(series, ...year(2025), 1);
    const in2026 = moving.starts(series, ...year(2026), 500);
    const fromFirst = walked.starts(series, new Date('2019-01-01T00:00:00Z'), year(2026)[1], 5000).filter((d) => d >= year(2026)[0]);
    expect(in2026).to.have.length(52);
    expect(iso(in2026)).to.deep.equal(iso(fromFirst));
    expect(iso(moving.starts(series, ...year(2020), 500))).to.deep.equal(iso(walked.starts(series, ...year(2020), 500)));
  });

  it('walks a range with no end (the largest Date) in a zone east or west of UTC: a window created with a rule asks so', () => {
    for (const timezone of ['Europe/Berlin', 'America/New_York']) {
      const series = { firstStart: new Date('2030-01-06T15:00:00Z'), rrule: 'FREQ=WEEKLY;BYDAY=SU', timezone };
      const [first] = expander.starts(series, new Date('2026-11-25T00:00:00Z'), new Date(8.64e15), 1);
      expect(first?.toISOString(), timezone).to.equal('2030-01-06T15:00:00.000Z');
    }
  });

  it('names what is wrong with a rule it cannot use', () => {
    expect(expander.problem('FREQ=WEEKLY;BYDAY=MO,FR')).to.equal(null);
    expect(expander.problem('BYDAY=MO')).to.match(/FREQ is required/);
    expect(expander.problem('FREQ=WEEKLY;BYDAY=XX')).to.be.a('string');
    expect(expander.problem('DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY')).to.be.a('string');
    expect(expander.problem('nonsense')).to.be.a('string');
    expect(expander.problem('FREQ=MINUTELY')).to.match(/HOURLY or longer/);
  });

  it('loads rrule on the first rule asked about, not when the service starts', () => {
    const loaded = `() => ['rrule'].filter((name) => Object.keys(require.cache).some((file) => file.includes('/node_modules/' + name + '/')))`;
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `const loaded = ${loaded};
         const { RruleRecurrenceExpander } = require('./src/infrastructure/maintenance/rrule-recurrence-expander.ts');
         const expander = new RruleRecurrenceExpander();
         const before = loaded();
         const problem = expander.problem('FREQ=DAILY');
         console.log(JSON.stringify({ before, problem, after: loaded() }));`,
      ],
      { cwd: path.join(__dirname, '..', '..', '..', '..'), encoding: 'utf8' },
    );
    expect(JSON.parse(out)).to.deep.equal({ before: [], problem: null, after: ['rrule'] });
  });
});
