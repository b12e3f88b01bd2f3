import { expect } from 'chai';
import sinon from 'sinon';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet } from '../../../support/callers';
import { setIncidentManagement } from '../../../support/im-fixtures';
import { testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { sql } from '../../../../src/infrastructure/persistence/sql';
import { AdmitImEvent } from '../../../../src/application/incident-management/admit-im-event';

const trigger = {
  routing_key: 'samplekeyhere0123456789abcdef012',
  event_action: 'trigger',
  payload: { summary: 's', source: 'x', severity: 'info' },
};

describe('POST /api/im/events: the 429 refused from memory by the token hash', function () {
  this.timeout(30_000);
  afterEach(() => sinon.restore());

  it('refuses a token its organization used up the window for before authentication, with the same answer (429 imEventRateLimited, without data.code); unknown tokens still get 401', async () => {
    const app = await testServer();
    const set = await aCallerSet();
    await setIncidentManagement(set.organizationId, true);
    // The window (and the next, should the minute turn meanwhile) used up, as if 600 events had been sent.
    // The service's clock (the shared test clock, which earlier tests may have moved days ahead).
    const minute = Math.floor(testClock.now().getTime() / 60_000);
    for (const w of [minute, minute + 1]) {
      await app.database.sql.query(
        sql`INSERT INTO rate_limit_counters (bucket, window_start, hits) VALUES (${`im-events:${set.organizationId}`}, ${new Date(w * 60_000)}, 600)`,
      );
    }
    const admit = app.container.get(AdmitImEvent);
    const decide = sinon.spy(admit, 'decide');
    const refuseByCredential = sinon.spy(admit, 'refuseByCredential');

    // First: authenticated, admitted, decided (the window read from the shared counter): 429.
    const first = await api('POST', '/api/im/events', { token: set.orgToken, body: trigger });
    expectError(first, 429);
    expect(decide.called).to.equal(true);

    // Then: refused by the token's hash, before admission and deciding, with the same envelope and header.
    decide.resetHistory();
    const second = await api('POST', '/api/im/events', { token: set.orgToken, body: trigger });
    expectError(second, 429);
    expect(decide.called).to.equal(false);
    expect(refuseByCredential.lastCall.returnValue).to.be.a('number');
    expect(second.body.data).to.deep.equal({ retryAfter: second.body.data.retryAfter });
    expect(second.headers.get('retry-after')).to.equal(String(second.body.data.retryAfter));
    expect(second.body.data.retryAfter).to.be.within(1, 60);

    // A token the process has not admitted is authenticated first, whatever the organization's window.
    expectError(await api('POST', '/api/im/events', { token: `${set.orgToken}x`, body: trigger }), 401, 'unauthorized');
    // Another organization is not refused.
    const other = await aCallerSet();
    await setIncidentManagement(other.organizationId, true);
    expect((await api('POST', '/api/im/events', { token: other.orgToken, body: trigger })).status).to.equal(202);
  });
});
