import { expect } from 'chai';
import { decideBurn, firingRules, type BurnRates } from '../../../../src/domain/service-levels/burn-alert';

const rates = (r: Partial<BurnRates>): BurnRates => ({ '5m': 0, '30m': 0, '1h': 0, '6h': 0, ...r });

describe('burn-rate alert rules', () => {
  it('fires fast at 14.4x on both 1 h and 5 min, not just below on either', () => {
    expect(firingRules(rates({ '1h': 14.4, '5m': 14.4 }))).to.deep.equal(['fast']);
    expect(firingRules(rates({ '1h': 14.39, '5m': 20 }))).to.deep.equal([]);
    expect(firingRules(rates({ '1h': 20, '5m': 14.39 }))).to.deep.equal([]);
  });

  it('fires slow at 6x on both 6 h and 30 min, not just below on either', () => {
    expect(firingRules(rates({ '6h': 6, '30m': 6 }))).to.deep.equal(['slow']);
    expect(firingRules(rates({ '6h': 5.99, '30m': 10 }))).to.deep.equal([]);
    expect(firingRules(rates({ '6h': 10, '30m': 5.99 }))).to.deep.equal([]);
  });

  it('fires both when both hold, and never on unknown windows', () => {
    expect(firingRules(rates({ '5m': 100, '30m': 100, '1h': 100, '6h': 100 }))).to.deep.equal(['fast', 'slow']);
    expect(firingRules({ '5m': null, '30m': null, '1h': 100, '6h': 100 })).to.deep.equal([]);
  });

  it('does not mix the windows of the two rules (1 h with 30 min is no rule)', () => {
    expect(firingRules(rates({ '1h': 20, '30m': 20 }))).to.deep.equal([]);
  });
});

describe('burn-rate alert decisions', () => {
  it('tells burning once when a rule starts firing', () => {
    expect(decideBurn('ok', rates({ '1h': 15, '5m': 15 }))).to.deep.equal({ next: 'burning', tell: 'burning', rules: ['fast'] });
  });

  it('tells nothing while the state stays', () => {
    expect(decideBurn('burning', rates({ '6h': 7, '30m': 7 })).tell).to.equal(null);
    expect(decideBurn('ok', rates({ '1h': 10, '5m': 10 })).tell).to.equal(null);
  });

  it('tells recovered once no rule fires', () => {
    expect(decideBurn('burning', rates({ '1h': 15, '5m': 1 }))).to.deep.equal({ next: 'ok', tell: 'recovered', rules: [] });
  });
});
