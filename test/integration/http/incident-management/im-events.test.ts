import { expect } from 'chai';
import http from 'node:http';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { eventsDecided, setIncidentManagement } from '../../../support/im-fixtures';
import { testServer } from '../../../support/test-server';
import { sql, raw } from '../../../../src/infrastructure/persistence/sql';
import { withinOneWindow } from '../../../support/rate-window';

/** A PagerDuty Events API v2 trigger, as PagerDuty's documentation shows it. */
const pdTrigger = (dedupKey: string, extra: Record<string, unknown> = {}) => ({
  routing_key: 'samplekeyhere0123456789abcdef012',
  event_action: 'trigger',
  dedup_key: dedupKey,
  payload: {
    summary: 'Example alert on host1.example.com',
    timestamp: '2015-07-17T08:42:58.315+0000',
    source: 'monitoringtool:cloudvendor:central-region-dc-01:852559987:cluster/api-stats-prod-003',
    severity: 'info',
    component: 'postgres',
    group: 'prod-datapipe',
    class: 'deploy',
    custom_details: { 'ping time': '1500ms', 'load avg': 0.75 },
  },
  links: [{ href: 'https://example.com/', text: 'Link text' }],
  client: 'Sample Monitoring Service',
  client_url: 'https://monitoring.example.com',
  ...extra,
});

/** Sends `chunks` as a chunked body (no Content-Length), one write per chunk. */
function chunkedPost(token: string, chunks: string[]): Promise<{ status: number; body: any }> {
  return testServer().then(
    ({ url }) =>
      new Promise((resolve, reject) => {
        const req = http.request(
          `${url}/api/im/events`,
          {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
          },
        );
        req.on('error', reject);
        for (const chunk of chunks) req.write(chunk);
        req.end();
      }),
  );
}

const nested = (levels: number): unknown => (levels === 0 ? 'leaf' : { n: nested(levels - 1) });

describe('POST /api/im/events (PagerDuty Events v2 shape)', () => {
  let callers: CallerSet;
  before(async () => {
    callers = await aCallerSet();
    await setIncidentManagement(callers.organizationId, true);
  });
  const send = (body: unknown, token = callers.orgToken) => api('POST', '/api/im/events', { token, body });
  // A 202 means accepted (durable); the incident is decided right after: wait for that before reading it.
  const incidentsWith = async (dedupKey: string) => {
    await eventsDecided(callers.organizationId);
    return (await api('GET', '/api/im/incidents', { token: callers.admin, query: { perPage: '200' } })).body.items.filter(
      (i: { dedupKey: string }) => i.dedupKey === dedupKey,
    );
  };

  it('opens an incident on trigger, answering 202 with its dedup key; acknowledges and resolves it by key', async () => {
    const accepted = await send(pdTrigger('pd-key-1'));
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
    expect(accepted.body).to.deep.equal({ status: 'success', message: 'Event accepted', dedup_key: 'pd-key-1' });
    const [incident] = await incidentsWith('pd-key-1');
    expect(incident).to.include({ title: 'Example alert on host1.example.com', severity: 'info', status: 'triggered', occurrenceCount: 1 });
    expect(incident.source).to.match(/^monitoringtool:/);
    const full = await api('GET', `/api/im/incidents/${incident.id}`, { token: callers.admin });
    expect(full.body.timeline[0].details.event).to.deep.include({ routing_key: 'samplekeyhere0123456789abcdef012', component: 'postgres' });

    expect((await send({ routing_key: 'k', event_action: 'acknowledge', dedup_key: 'pd-key-1' })).status).to.equal(202);
    expect((await incidentsWith('pd-key-1'))[0].status).to.equal('acknowledged');
    expect((await send({ routing_key: 'k', event_action: 'acknowledge', dedup_key: 'pd-key-1' })).status).to.equal(202);
    expect((await send({ routing_key: 'k', event_action: 'resolve', dedup_key: 'pd-key-1' })).status).to.equal(202);
    expect((await incidentsWith('pd-key-1'))[0].status).to.equal('resolved');
    const again = await send(pdTrigger('pd-key-1'));
    expect(again.status).to.equal(202);
    expect((await incidentsWith('pd-key-1')).map((i: { status: string }) => i.status)).to.deep.equal(['triggered', 'resolved']);
  });

  it('gives a trigger without a dedup key a fresh one; ignores acknowledge and resolve for keys with no open incident', async () => {
    const { dedup_key: _drop, ...keyless } = pdTrigger('unused');
    const accepted = await send(keyless);
    expect(accepted.status).to.equal(202);
    expect(accepted.body.dedup_key).to.be.a('string').and.have.length.greaterThan(8);
    expect(await incidentsWith(accepted.body.dedup_key)).to.have.lengthOf(1);
    const ignored = await send({ routing_key: 'k', event_action: 'resolve', dedup_key: 'never-seen' });
    expect(ignored.status).to.equal(202);
    expect(ignored.body.dedup_key).to.equal('never-seen');
  });

  it('turns the same trigger sent 50 times at once into one incident with 50 occurrences', async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, () => send(pdTrigger('storm-key'))));
    expect(responses.map((r) => r.status)).to.deep.equal(Array(50).fill(202));
    const incidents = await incidentsWith('storm-key');
    expect(incidents).to.have.lengthOf(1);
    expect(incidents[0].occurrenceCount).to.equal(50);
    const full = await api('GET', `/api/im/incidents/${incidents[0].id}`, { token: callers.admin });
    expect(full.body.timeline.filter((e: { kind: string }) => e.kind === 'occurrence')).to.have.lengthOf(49);
  });

  it('refuses bodies over 256 KB with 413 payloadTooLarge, declared or streamed', async () => {
    const big = JSON.stringify(
      pdTrigger('big', { payload: { summary: 's', source: 's', severity: 'info', custom_details: { blob: 'x'.repeat(256 * 1024) } } }),
    );
    expectError(
      await api('POST', '/api/im/events', { token: callers.orgToken, rawBody: big, headers: { 'content-type': 'application/json' } }),
      413,
      'payloadTooLarge',
    );
    const chunks = [big.slice(0, 100_000), big.slice(100_000, 200_000), big.slice(200_000)];
    expectError(await chunkedPost(callers.orgToken, chunks), 413, 'payloadTooLarge');
    expect(await incidentsWith('big')).to.have.lengthOf(0);
  });

  it('accepts nesting of 20 levels and refuses 21 with 422 payloadTooDeep', async () => {
    // Levels: the event (1), payload (2), then custom_details' own objects (3 onwards).
    const at20 = pdTrigger('deep-20', { payload: { summary: 's', source: 's', severity: 'info', custom_details: nested(18) } });
    expect((await send(at20)).status).to.equal(202);
    const at21 = pdTrigger('deep-21', { payload: { summary: 's', source: 's', severity: 'info', custom_details: nested(19) } });
    expectError(await send(at21), 422, 'payloadTooDeep');
    expectError(await chunkedPost(callers.orgToken, ['['.repeat(21), ']'.repeat(21)]), 422, 'payloadTooDeep');
  });

  it('refuses what is not JSON with 422 invalidJson (malformed, truncated, empty, two documents)', async () => {
    for (const rawBody of ['{"routing_key": ', 'not json', '', '{"a":1}{"b":2}', '{"a":1,}']) {
      expectError(
        await api('POST', '/api/im/events', { token: callers.orgToken, rawBody, headers: { 'content-type': 'application/json' } }),
        422,
        'invalidJson',
      );
    }
    expectError(await chunkedPost(callers.orgToken, ['{"routing_key": "k", ', '"event_action": tru']), 422, 'invalidJson');
  });

  it('answers 400 validationFailed for JSON that is not an event', async () => {
    const response = await send({ routing_key: 'k', event_action: 'trigger' });
    expectError(response, 400, 'validationFailed');
    expect(response.body.data.issues.map((i: { path: string[] }) => i.path.join('.'))).to.include('payload');
    expectError(await send({ routing_key: 'k', event_action: 'resolve' }), 400, 'validationFailed');
  });

  it('answers 503 unavailable when the event cannot be stored; nothing is kept and a retry succeeds', async () => {
    const set = await aCallerSet();
    await setIncidentManagement(set.organizationId, true);
    const { database } = await testServer();
    const fn = `im_refuse_${set.organizationId}`;
    await database.sql.query(
      sql`CREATE FUNCTION ${raw(fn)}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'storage refused'; END $$`,
    );
    await database.sql.query(
      sql`CREATE TRIGGER ${raw(fn)} BEFORE INSERT ON im_event_intake FOR EACH ROW WHEN (NEW.organization_id = ${raw(String(set.organizationId))}) EXECUTE FUNCTION ${raw(fn)}()`,
    );
    try {
      expectError(await send(pdTrigger('refused'), set.orgToken), 503, 'unavailable');
    } finally {
      await database.sql.query(sql`DROP TRIGGER ${raw(fn)} ON im_event_intake`);
      await database.sql.query(sql`DROP FUNCTION ${raw(fn)}()`);
    }
    await eventsDecided(set.organizationId);
    const none = await api('GET', '/api/im/incidents', { token: set.admin, query: { perPage: '200' } });
    expect(none.body.items).to.have.lengthOf(0);
    expect((await send(pdTrigger('refused'), set.orgToken)).status).to.equal(202);
  });

  it('decides an accepted event once its incident can be stored: a decision that fails is tried again, nothing is lost', async () => {
    const set = await aCallerSet();
    await setIncidentManagement(set.organizationId, true);
    const { database } = await testServer();
    const fn = `im_refuse_decision_${set.organizationId}`;
    await database.sql.query(
      sql`CREATE FUNCTION ${raw(fn)}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'storage refused'; END $$`,
    );
    await database.sql.query(
      sql`CREATE TRIGGER ${raw(fn)} BEFORE INSERT ON im_incidents FOR EACH ROW WHEN (NEW.organization_id = ${raw(String(set.organizationId))}) EXECUTE FUNCTION ${raw(fn)}()`,
    );
    const pending = async () =>
      Number(
        (
          await database.sql.query<{ n: string }>(
            sql`SELECT count(*)::text AS n FROM im_event_intake WHERE organization_id = ${set.organizationId}`,
          )
        )[0]!.n,
      );
    try {
      const accepted = await send(pdTrigger('decided-later'), set.orgToken);
      expect(accepted.status).to.equal(202);
      expect(accepted.body).to.deep.equal({ status: 'success', message: 'Event accepted', dedup_key: 'decided-later' });
      // The decider tried and failed: the event stays in the log, undecided.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await pending()).to.equal(1);
    } finally {
      await database.sql.query(sql`DROP TRIGGER ${raw(fn)} ON im_incidents`);
      await database.sql.query(sql`DROP FUNCTION ${raw(fn)}()`);
    }
    await eventsDecided(set.organizationId, 60_000);
    const listed = await api('GET', '/api/im/incidents', { token: set.admin, query: { perPage: '200' } });
    expect(listed.body.items.map((i: { dedupKey: string; occurrenceCount: number }) => [i.dedupKey, i.occurrenceCount])).to.deep.equal([
      ['decided-later', 1],
    ]);
  });

  it('allows 600 events per minute per organization; the next gets 429 with retryAfter and no code, before its body is read', async function () {
    this.timeout(90_000); // up to 30 s waiting for a whole window (withinOneWindow)
    const set = await aCallerSet();
    await setIncidentManagement(set.organizationId, true);
    await withinOneWindow(30_000);
    // Refused bodies count too (the rate is decided first); they keep the test quick.
    for (let sent = 0; sent < 600; sent += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, () =>
          api('POST', '/api/im/events', { token: set.orgToken, rawBody: 'x', headers: { 'content-type': 'application/json' } }),
        ),
      );
      expect(batch.map((r) => r.status)).to.deep.equal(Array(50).fill(422));
    }
    const limited = await send(pdTrigger('late'), set.orgToken);
    expectError(limited, 429);
    expect(limited.body.data.retryAfter).to.be.a('number').within(1, 60);
    expect(limited.headers.get('retry-after')).to.equal(String(limited.body.data.retryAfter));
    // Declares a body it never sends: only a verdict reached before reading can answer.
    const { url } = await testServer();
    const early = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${url}/api/im/events`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${set.orgToken}`, 'content-type': 'application/json', 'content-length': '1000' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
          req.destroy();
        },
      );
      req.on('error', reject);
      req.write('{');
    });
    expect(early).to.equal(429);
    // Another organization is not affected.
    expect((await send(pdTrigger('other-org'))).status).to.equal(202);
  });
});
