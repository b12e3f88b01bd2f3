import { expect } from 'chai';
import {
  COMPONENT_STATES,
  dayBar,
  headline,
  monitorState,
  worstState,
  type DayCoverage,
} from '../../../../src/domain/status-pages/component-status';

const DAY = 86_400;
const day = (over: Partial<DayCoverage> = {}): DayCoverage => ({
  upSeconds: DAY,
  degradedSeconds: 0,
  downSeconds: 0,
  expectedSeconds: DAY,
  maintenanceSeconds: 0,
  ...over,
});

describe('Component states, headlines and daily bars', () => {
  it('orders states down, degraded, maintenance, unknown, operational: a group or page shows its worst', () => {
    const order = ['down', 'degraded', 'maintenance', 'unknown', 'operational'] as const;
    for (const [i, worst] of order.entries()) expect(worstState(order.slice(i).toReversed()), worst).to.equal(worst);
    expect(worstState(['operational', 'unknown'])).to.equal('unknown');
    expect(worstState(['maintenance', 'degraded'])).to.equal('degraded');
    expect(worstState(['operational', 'operational'])).to.equal('operational');
  });

  it('shows a group or page with no components as unknown, never as operational', () => {
    expect(worstState([])).to.equal('unknown');
  });

  it('gives each state its headline', () => {
    expect(COMPONENT_STATES.map(headline)).to.deep.equal([
      'All systems operational',
      'Degraded performance',
      'Major outage',
      'Maintenance in progress',
      'Status unknown',
    ]);
  });

  it('shows a monitor in maintenance over anything its locations say, even with no result yet', () => {
    expect(monitorState([], true)).to.equal('maintenance');
    expect(monitorState(['up', 'degraded', 'down'], true)).to.equal('maintenance');
    expect(monitorState(['degraded', 'down', 'up'], false)).to.equal('down');
    expect(monitorState(['degraded', 'degraded'], false)).to.equal('degraded');
  });

  it('counts up and degraded time as uptime, floored to two decimals', () => {
    expect(dayBar('d', day({ upSeconds: DAY - 100, degradedSeconds: 50, downSeconds: 50 })).uptimePercent).to.equal(99.94);
    expect(dayBar('d', day({ upSeconds: 2, downSeconds: 1 })).uptimePercent).to.equal(66.66);
    expect(dayBar('d', day({ upSeconds: 0, downSeconds: DAY })).uptimePercent).to.equal(0);
  });

  it('needs results for at least half the expected time before it calls a day up or degraded', () => {
    expect(dayBar('d', day({ upSeconds: DAY / 2 })).state).to.equal('up');
    expect(dayBar('d', day({ upSeconds: DAY / 2 - 1 })).state).to.equal('unknown');
    expect(dayBar('d', day({ upSeconds: DAY / 4, degradedSeconds: DAY / 4 })).state).to.equal('degraded');
  });

  it('shows a day before the monitor existed (nothing expected) as unknown, whatever was recorded', () => {
    expect(dayBar('d', day({ expectedSeconds: 0 })).state).to.equal('unknown');
    expect(dayBar('d', day({ upSeconds: 0, expectedSeconds: 0 }))).to.deep.equal({ date: 'd', state: 'unknown', uptimePercent: null });
  });

  it('shows any down time as a down day, even when few results were seen or maintenance covered it', () => {
    expect(dayBar('d', day({ upSeconds: 0, downSeconds: 1 })).state).to.equal('down');
    expect(dayBar('d', day({ downSeconds: 1, maintenanceSeconds: DAY })).state).to.equal('down');
  });

  it('shows maintenance apart even on a day with too few results or some degraded time', () => {
    expect(dayBar('d', day({ upSeconds: 0, maintenanceSeconds: 60 })).state).to.equal('maintenance');
    expect(dayBar('d', day({ degradedSeconds: 60, maintenanceSeconds: 60 })).state).to.equal('maintenance');
  });
});
