import { expect } from 'chai';
import { barOf, barStart, overviewStateOf, OVERVIEW_STATES, urgencyOf } from '../../../../src/domain/overview/monitor-overview';
import type { CurrentState } from '../../../../src/domain/incidents/current-state';

const state = (status: CurrentState['status'], reason: CurrentState['reason'] = null): CurrentState => ({
  status,
  reason,
  silentLocations: [],
  unknownSince: null,
  dependencyRoot: null,
});

describe('overview state', () => {
  const facts = { paused: false, inMaintenance: false, current: state('up'), lastStatus: 'up' as const };

  it('says paused before maintenance, maintenance before what the rules decided', () => {
    expect(overviewStateOf({ ...facts, paused: true, inMaintenance: true, current: state('down') })).to.equal('paused');
    expect(overviewStateOf({ ...facts, inMaintenance: true, current: state('down') })).to.equal('maintenance');
  });

  it('is down while the incident is open, unknown when it cannot be decided, degraded from the newest result', () => {
    expect(overviewStateOf({ ...facts, current: state('down'), lastStatus: 'up' })).to.equal('down');
    expect(overviewStateOf({ ...facts, current: state('dependencyDown'), lastStatus: 'down' })).to.equal('down');
    expect(overviewStateOf({ ...facts, current: state('unknown', 'silentLocations'), lastStatus: 'degraded' })).to.equal('unknown');
    expect(overviewStateOf({ ...facts, lastStatus: 'degraded' })).to.equal('degraded');
    expect(overviewStateOf({ ...facts, lastStatus: 'down' })).to.equal('up');
    expect(overviewStateOf({ ...facts, lastStatus: null })).to.equal('up');
  });

  it('puts down first and up last', () => {
    expect(urgencyOf('down')).to.equal(0);
    expect(urgencyOf('up')).to.equal(OVERVIEW_STATES.length - 1);
    expect(urgencyOf('degraded')).to.be.lessThan(urgencyOf('unknown'));
  });
});

describe('uptime bars', () => {
  const now = new Date('2026-11-25T10:20:00Z');

  it('end with the bucket that holds now, aligned to UTC hours or days', () => {
    expect(barStart('24h', now).toISOString()).to.equal('2026-11-24T11:00:00.000Z');
    expect(barStart('90d', now).toISOString()).to.equal('2026-08-28T00:00:00.000Z');
  });

  it('add the parts of one bucket and tell shares of the known time; nothing known is null', () => {
    const bar = barOf('24h', now, [
      { start: new Date('2026-11-25T09:00:00Z'), up: 3000, degraded: 0, down: 600 },
      { start: new Date('2026-11-25T09:00:00Z'), up: 0, degraded: 0, down: 0 },
      { start: new Date('2026-11-25T10:00:00Z'), up: 60, degraded: 60, down: 60 },
      { start: new Date('2026-11-20T10:00:00Z'), up: 1, degraded: 0, down: 0 },
    ]);
    expect(bar).to.have.length(24);
    expect(bar[22]).to.deep.equal({ start: new Date('2026-11-25T09:00:00Z'), up: 0.8333, degraded: 0, down: 0.1667 });
    expect(bar[23]).to.deep.include({ up: 0.3333, degraded: 0.3333, down: 0.3333 });
    expect(bar[0]).to.deep.include({ up: null, degraded: null, down: null });
  });
});
