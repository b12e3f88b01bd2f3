import { expect } from 'chai';
import { api, expectError } from '../../support/http-client';
import { aCallerSet, type CallerSet } from '../../support/callers';
import { setIncidentManagement } from '../../support/im-fixtures';

/**
 * Found by the schema fuzz: a lone surrogate (half of a UTF-16 pair, "\ud800") is valid JSON but no
 * text. In an IM event it reached a jsonb column, which PostgreSQL refuses, and the event answered
 * 503 "retry" forever; in text columns it was stored as U+FFFD. Bodies holding one are refused with
 * 400 validationFailed, naming where.
 */
describe('security: lone surrogates in JSON bodies', () => {
  let c: CallerSet;
  const json = (body: string) => ({ rawBody: body, headers: { 'content-type': 'application/json' } });

  before(async function () {
    this.timeout(30_000);
    c = await aCallerSet();
    await setIncidentManagement(c.organizationId, true);
  });

  it('refuses an IM event carrying one with 400 validationFailed, and accepts the same event without it', async () => {
    const event = (details: string) =>
      `{"routing_key":"k","event_action":"trigger","payload":{"summary":"s","source":"x","severity":"info","custom_details":${details}}}`;
    const refused = await api('POST', '/api/im/events', { token: c.admin, ...json(event('{"note":"a\\ud800b"}')) });
    expectError(refused, 400, 'validationFailed');
    expect(refused.body.data.issues).to.deep.equal([
      {
        path: ['payload', 'custom_details', 'note'],
        message: 'Text must be well-formed Unicode (no lone surrogate) in the request body',
        code: 'custom',
      },
    ]);
    expect((await api('POST', '/api/im/events', { token: c.admin, ...json(event('{"note":"ab"}')) })).status).to.equal(202);
  });

  it('refuses one in a plain field and in a key, so nothing is stored as U+FFFD', async () => {
    const tag = await api('POST', '/api/tags', {
      token: c.admin,
      ...json(`{"name":"x\\udfff","color":"#3B82F6","customerId":${c.customer.id}}`),
    });
    expectError(tag, 400, 'validationFailed');
    expect(tag.body.data.issues[0].path).to.deep.equal(['name']);
    const key = await api('PATCH', `/api/customers/${c.customer.id}`, { token: c.admin, ...json('{"customFields":{"\\ud83d":"v"}}') });
    expectError(key, 400, 'validationFailed');
    expect((await api('GET', '/api/tags', { token: c.admin })).body.items.map((t: { name: string }) => t.name)).not.to.include('x\udfff');
  });

  it('accepts well-formed astral characters (a surrogate pair)', async () => {
    const tag = await api('POST', '/api/tags', {
      token: c.admin,
      ...json(`{"name":"ok \\ud83d\\ude00","color":"#3B82F6","customerId":${c.customer.id}}`),
    });
    expect(tag.status, JSON.stringify(tag.body)).to.equal(201);
    expect(tag.body.name).to.equal('ok \u{1F600}');
  });
});
