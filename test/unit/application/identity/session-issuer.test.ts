import { FakeTransaction, immediateTransactions } from '../../../support/fakes/shared-fakes';
import { expect } from 'chai';
import { SessionIssuer } from '../../../../src/application/identity/sessions';
import { FakeSessions, plainSecrets } from '../../../support/fakes/identity-fakes';
import { sequentialIds } from '../../../support/fakes/shared-fakes';
import { ManualClock } from '../../../support/manual-clock';

describe('SessionIssuer', () => {
  it('records a completed sign-in on the user, not the two-factor challenge before it', async () => {
    const sessions = new FakeSessions();
    const clock = new ManualClock();
    const issuer = new SessionIssuer(sessions, plainSecrets, sequentialIds(), clock, immediateTransactions);
    await issuer.challenge('ada');
    expect(sessions.signIns.has('ada')).to.equal(false);
    clock.advance(60_000);
    await issuer.issue('ada', 'session', true, new FakeTransaction());
    expect(sessions.signIns.get('ada')?.toISOString()).to.equal(clock.now().toISOString());
  });
});
