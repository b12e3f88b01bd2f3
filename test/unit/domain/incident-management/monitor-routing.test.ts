import { expect } from 'chai';
import { effectiveImRoute, monitorStormDedupKey, type ImRoutingSetting } from '../../../../src/domain/incident-management/monitor-routing';

const on = (teamId: string | null, escalationPolicyId: string | null): ImRoutingSetting => ({ enabled: true, teamId, escalationPolicyId });
const off: ImRoutingSetting = { enabled: false, teamId: 'ignored', escalationPolicyId: 'ignored' };

describe('routing of monitor incidents into IM (customer default, monitor override)', () => {
  it('routes nothing when neither the customer nor the monitor has a setting (opt-in)', () => {
    expect(effectiveImRoute(null, null)).to.equal(null);
  });

  it("a monitor without a setting inherits its customer's route", () => {
    expect(effectiveImRoute(on('ops', 'p1'), null)).to.deep.equal({ teamId: 'ops', escalationPolicyId: 'p1' });
  });

  it('a monitor without a setting inherits its customer\'s "off"', () => {
    expect(effectiveImRoute(off, null)).to.equal(null);
  });

  it('an explicit off on the monitor wins over a routed customer', () => {
    expect(effectiveImRoute(on('ops', 'p1'), off)).to.equal(null);
  });

  it('an explicit on routes the monitor of a customer that is off, or has no setting', () => {
    expect(effectiveImRoute(off, on('db', 'p2'))).to.deep.equal({ teamId: 'db', escalationPolicyId: 'p2' });
    expect(effectiveImRoute(null, on('db', 'p2'))).to.deep.equal({ teamId: 'db', escalationPolicyId: 'p2' });
  });

  it('an override is taken whole: its null team and policy are not borrowed from the customer', () => {
    expect(effectiveImRoute(on('ops', 'p1'), on(null, null))).to.deep.equal({ teamId: null, escalationPolicyId: null });
  });

  it('keys a monitor storm by the customer and the route (team and policy)', () => {
    expect(monitorStormDedupKey(3, { teamId: 'ops', escalationPolicyId: 'p1' })).to.equal('monitor-storm:3:ops:p1');
    expect(monitorStormDedupKey(3, { teamId: null, escalationPolicyId: null })).to.equal('monitor-storm:3:-:-');
    expect(monitorStormDedupKey(4, { teamId: 'ops', escalationPolicyId: 'p1' })).to.not.equal(
      monitorStormDedupKey(3, { teamId: 'ops', escalationPolicyId: 'p1' }),
    );
    expect(monitorStormDedupKey(3, { teamId: 'db', escalationPolicyId: 'p1' })).to.not.equal(
      monitorStormDedupKey(3, { teamId: 'ops', escalationPolicyId: 'p1' }),
    );
  });
});
