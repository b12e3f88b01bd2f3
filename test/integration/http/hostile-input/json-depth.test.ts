import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { setIncidentManagement } from '../../../support/im-fixtures';

/** An object nesting `levels` deep ({} counts 1). */
const nested = (levels: number): Record<string, unknown> => (levels === 1 ? { leaf: true } : { n: nested(levels - 1) });

/** One limit, 20 levels, for every JSON body: a plain API route, events ingest and alert-source ingest. */
describe('one nesting limit for every JSON body', () => {
  let callers: CallerSet;
  let sourceToken: string;
  before(async () => {
    callers = await aCallerSet();
    await setIncidentManagement(callers.organizationId, true);
    const source = await api('POST', '/api/im/sources', {
      token: callers.admin,
      body: {
        name: 'Generic',
        kind: 'generic',
        mapping: {
          dedupKey: 'id',
          summary: 'message',
          severity: 'level',
          status: 'state',
          source: 'host',
          resolvedValues: ['up'],
          acknowledgedValues: ['ack'],
        },
      },
    });
    expect(source.status, JSON.stringify(source.body)).to.equal(201);
    sourceToken = source.body.token;
  });

  it('a plain API route: 20 levels reach the route (its own validation answers), 21 answer 422 payloadTooDeep', async () => {
    const at20 = await api('POST', '/api/customers', {
      token: callers.admin,
      body: { name: 'Deep', email: 'deep@example.com', customFields: nested(19) },
    });
    expect(at20.body.data?.code, JSON.stringify(at20.body)).not.to.equal('payloadTooDeep');
    const at21 = await api('POST', '/api/customers', {
      token: callers.admin,
      body: { name: 'Deep', email: 'deep@example.com', customFields: nested(20) },
    });
    expectError(at21, 422, 'payloadTooDeep');
    expect(at21.body.data.maxDepth).to.equal(20);
  });

  it('events ingest: 21 levels answer 422 payloadTooDeep', async () => {
    const event = {
      routing_key: 'k',
      event_action: 'trigger',
      payload: { summary: 's', source: 's', severity: 'info', custom_details: nested(19) },
    };
    expectError(await api('POST', '/api/im/events', { token: callers.orgToken, body: event }), 422, 'payloadTooDeep');
  });

  it('alert-source ingest: 20 levels are accepted, 21 answer 422 payloadTooDeep (it allowed 32 before)', async () => {
    const at20 = await api('POST', `/api/im/ingest/${sourceToken}`, {
      body: { id: 'deep-20', message: 'm', state: 'down', extra: nested(19) },
    });
    expect(at20.status, JSON.stringify(at20.body)).to.equal(202);
    const at21 = await api('POST', `/api/im/ingest/${sourceToken}`, {
      body: { id: 'deep-21', message: 'm', state: 'down', extra: nested(20) },
    });
    expectError(at21, 422, 'payloadTooDeep');
    const at30 = await api('POST', `/api/im/ingest/${sourceToken}`, {
      body: { id: 'deep-30', message: 'm', state: 'down', extra: nested(29) },
    });
    expectError(at30, 422, 'payloadTooDeep');
  });
});
