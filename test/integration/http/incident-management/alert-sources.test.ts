import { expect } from 'chai';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { setIncidentManagement } from '../../../support/im-fixtures';
import { testServer } from '../../../support/test-server';
import { sql } from '../../../../src/infrastructure/persistence/sql';
import { withinOneWindow } from '../../../support/rate-window';

const fixture = (name: string) => fs.readFileSync(path.resolve(__dirname, '../../../fixtures', name), 'utf8');
const postRaw = (token: string, rawBody: string) =>
  api('POST', `/api/im/ingest/${token}`, { rawBody, headers: { 'content-type': 'application/json' } });

describe('IM alert sources', () => {
  let callers: CallerSet;
  before(async () => {
    callers = await aCallerSet();
    await setIncidentManagement(callers.organizationId, true);
  });
  const createSource = async (body: Record<string, unknown>, set = callers) => {
    const created = await api('POST', '/api/im/sources', { token: set.admin, body });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body as { id: string; token: string; [key: string]: unknown };
  };
  const incidentsOf = async (sourceId: string) =>
    (await api('GET', '/api/im/incidents', { token: callers.admin, query: { perPage: '200' } })).body.items
      .filter((i: { dedupKey: string }) => i.dedupKey.startsWith(`${sourceId}:`))
      .sort((a: { dedupKey: string }, b: { dedupKey: string }) => a.dedupKey.localeCompare(b.dedupKey));

  it('answers the token once, stores only its digest, and forgets it when the source is deleted', async () => {
    const source = await createSource({ name: 'Prometheus', kind: 'alertmanager' });
    expect(source.token).to.match(/^wsmi_/);
    expect(source.tokenHint).to.equal(source.token.slice(-4));
    const read = await api('GET', `/api/im/sources/${source.id}`, { token: callers.editor });
    expect(read.body).to.not.have.property('token');
    expect(read.body).to.include({ name: 'Prometheus', kind: 'alertmanager' });
    const listed = await api('GET', '/api/im/sources', { token: callers.responder });
    expect(listed.body.items.map((s: { id: string }) => s.id)).to.include(source.id);
    const { database } = await testServer();
    const [row] = await database.sql.query<Record<string, unknown>>(sql`SELECT * FROM im_alert_sources WHERE public_id = ${source.id}`);
    expect(JSON.stringify(row)).to.not.include(source.token.slice(5));
    const renamed = await api('PATCH', `/api/im/sources/${source.id}`, { token: callers.admin, body: { name: 'Prom EU' } });
    expect(renamed.body.name).to.equal('Prom EU');
    expect((await api('DELETE', `/api/im/sources/${source.id}`, { token: callers.admin })).status).to.equal(200);
    expectError(await postRaw(source.token, fixture('alertmanager/firing.json')), 404, 'notFound');
    expectError(await api('GET', `/api/im/sources/${source.id}`, { token: callers.admin }), 404, 'notFound');
  });

  it("refuses another organization's routing ids", async () => {
    const other = await aCallerSet();
    const base = { name: 'x', kind: 'generic' };
    expectError(
      await api('POST', '/api/im/sources', { token: callers.admin, body: { ...base, customerId: other.customer.id } }),
      422,
      'invalidCustomerId',
    );
    expectError(
      await api('POST', '/api/im/sources', { token: callers.admin, body: { ...base, teamId: 'elsewhere' } }),
      422,
      'invalidTeamId',
    );
    expectError(
      await api('POST', '/api/im/sources', { token: callers.admin, body: { ...base, escalationPolicyId: 'elsewhere' } }),
      422,
      'imRoutingInvalidPolicyId',
    );
  });

  it('opens one incident per alert of a real Alertmanager notification, and resolves each by fingerprint', async () => {
    const source = await createSource({ name: 'Alertmanager', kind: 'alertmanager', customerId: callers.customer.id });
    const firing = await postRaw(source.token, fixture('alertmanager/firing.json'));
    expect(firing.status, JSON.stringify(firing.body)).to.equal(202);
    expect(firing.body.processed.map((p: { outcome: string }) => p.outcome)).to.deep.equal(['created', 'created']);
    let incidents = await incidentsOf(source.id);
    expect(incidents.map((i: any) => [i.dedupKey, i.title, i.severity, i.source, i.status, i.customerId])).to.deep.equal([
      [`${source.id}:55b97254facb078e`, 'Disk almost full on db-2', 'warning', 'db-2:9100', 'triggered', callers.customer.id],
      [`${source.id}:8c77d5865e910658`, 'Disk almost full on db-1', 'critical', 'db-1:9100', 'triggered', callers.customer.id],
    ]);
    expect(
      (await postRaw(source.token, fixture('alertmanager/firing.json'))).body.processed.map((p: { outcome: string }) => p.outcome),
    ).to.deep.equal(['occurrence', 'occurrence']);
    const oneResolved = await postRaw(source.token, fixture('alertmanager/one-resolved.json'));
    expect(oneResolved.body.processed.map((p: { outcome: string }) => p.outcome)).to.deep.equal(['resolved', 'occurrence']);
    expect((await postRaw(source.token, fixture('alertmanager/all-resolved.json'))).status).to.equal(202);
    incidents = await incidentsOf(source.id);
    expect(incidents.map((i: any) => [i.status, i.occurrenceCount])).to.deep.equal([
      ['resolved', 3],
      ['resolved', 2],
    ]);
  });

  it('fans a Grafana alerting notification out by fingerprint, and resolves one', async () => {
    const source = await createSource({ name: 'Grafana', kind: 'grafana' });
    const firing = await postRaw(source.token, fixture('grafana/firing.json'));
    expect(firing.status, JSON.stringify(firing.body)).to.equal(202);
    expect((await incidentsOf(source.id)).map((i: any) => [i.title, i.status])).to.deep.equal([
      ['This alert was triggered for zone eu-1', 'triggered'],
      ['This alert was triggered for zone us-1', 'triggered'],
    ]);
    expect((await postRaw(source.token, fixture('grafana/resolved.json'))).body.processed[0].outcome).to.equal('resolved');
    expect((await incidentsOf(source.id)).map((i: any) => i.status)).to.deep.equal(['triggered', 'resolved']);
  });

  it("reads generic JSON through the source's mapping", async () => {
    const source = await createSource({
      name: 'Uptime bot',
      kind: 'generic',
      mapping: {
        dedupKey: 'check.id',
        summary: 'check.message',
        severity: 'level',
        status: 'state',
        source: 'check.host',
        resolvedValues: ['up'],
        acknowledgedValues: ['ack'],
      },
    });
    const down = { check: { id: 'c-7', message: 'shop.example is down', host: 'shop.example' }, level: 'warn', state: 'down' };
    expect((await api('POST', `/api/im/ingest/${source.token}`, { body: down })).status).to.equal(202);
    const [incident] = await incidentsOf(source.id);
    expect(incident).to.include({ title: 'shop.example is down', severity: 'warning', source: 'shop.example', status: 'triggered' });
    await api('POST', `/api/im/ingest/${source.token}`, { body: { ...down, state: 'ack' } });
    expect((await incidentsOf(source.id))[0].status).to.equal('acknowledged');
    await api('POST', `/api/im/ingest/${source.token}`, { body: [{ ...down, state: 'up' }] });
    expect((await incidentsOf(source.id))[0].status).to.equal('resolved');
    expectError(await api('POST', `/api/im/ingest/${source.token}`, { body: { level: 'warn' } }), 400, 'validationFailed');
  });

  it("commits a payload's alerts in their order beside concurrent requests; every 202 is stored when answered", async () => {
    const generic = await createSource({
      name: 'Ordered bot',
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
    });
    const grouped = await createSource({ name: 'Busy Alertmanager', kind: 'alertmanager' });
    const alert = (state: string) => ({ id: 'c-1', message: 'c-1 is down', state });
    const [ordered, ...fanned] = await Promise.all([
      api('POST', `/api/im/ingest/${generic.token}`, { body: [alert('down'), alert('ack'), alert('up'), alert('down')] }),
      ...Array.from({ length: 12 }, () => postRaw(grouped.token, fixture('alertmanager/firing.json'))),
    ]);
    expect(ordered!.status, JSON.stringify(ordered!.body)).to.equal(202);
    expect(ordered!.body.processed.map((p: { outcome: string }) => p.outcome)).to.deep.equal([
      'created',
      'acknowledged',
      'resolved',
      'created',
    ]);
    expect(fanned.map((r) => r.status)).to.deep.equal(Array(12).fill(202));
    const outcomes = fanned.flatMap((r) => r.body.processed.map((p: { outcome: string }) => p.outcome));
    expect(outcomes.filter((o: string) => o === 'created')).to.have.lengthOf(2);
    expect(outcomes.filter((o: string) => o === 'occurrence')).to.have.lengthOf(22);
    expect((await incidentsOf(generic.id)).map((i: any) => i.status).sort()).to.deep.equal(['resolved', 'triggered']);
    expect((await incidentsOf(grouped.id)).map((i: any) => [i.status, i.occurrenceCount])).to.deep.equal([
      ['triggered', 12],
      ['triggered', 12],
    ]);
  });

  it("sends a test alert through the source's real path", async () => {
    const source = await createSource({ name: 'Grafana test', kind: 'grafana' });
    const sent = await api('POST', `/api/im/sources/${source.id}/test-alert`, { token: callers.responder });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(202);
    expect(sent.body.processed).to.have.lengthOf(1);
    const [incident] = await incidentsOf(source.id);
    expect(incident).to.include({ title: 'Test alert from Grafana test', severity: 'info', status: 'triggered' });
  });

  it('answers 404 for an unknown token and imNotEnabled once IM is switched off', async () => {
    expectError(await postRaw('wsmi_unknown', '{}'), 404, 'notFound');
    const set = await aCallerSet();
    await setIncidentManagement(set.organizationId, true);
    const source = await createSource({ name: 'off', kind: 'alertmanager' }, set);
    await setIncidentManagement(set.organizationId, false);
    expectError(await postRaw(source.token, fixture('alertmanager/firing.json')), 403, 'imNotEnabled');
  });

  it('allows 300 requests per minute per source (imIngestRateLimited with retryAfter; another source is unaffected)', async function () {
    this.timeout(90_000); // up to 30 s waiting for a whole window (withinOneWindow)
    const busy = await createSource({ name: 'busy', kind: 'alertmanager' });
    const calm = await createSource({ name: 'calm', kind: 'alertmanager' });
    await withinOneWindow(30_000);
    for (let sent = 0; sent < 300; sent += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => postRaw(busy.token, 'x')));
      expect(batch.map((r) => r.status)).to.deep.equal(Array(50).fill(422));
    }
    const limited = await postRaw(busy.token, fixture('alertmanager/firing.json'));
    expectError(limited, 429, 'imIngestRateLimited');
    expect(limited.body.data.retryAfter).to.be.a('number').within(1, 60);
    expect((await postRaw(calm.token, fixture('alertmanager/firing.json'))).status).to.equal(202);
  });

  it('allows 50 MiB of bodies per organization per hour (imIngestByteBudgetExceeded with retryAfter), refused before reading', async () => {
    const set = await aCallerSet();
    await setIncidentManagement(set.organizationId, true);
    const [a, b] = [await createSource({ name: 'a', kind: 'generic' }, set), await createSource({ name: 'b', kind: 'generic' }, set)];
    const mebibyte = JSON.stringify('x'.repeat(1024 * 1024 - 2));
    expect(Buffer.byteLength(mebibyte)).to.equal(1024 * 1024);
    for (let sent = 0; sent < 50; sent += 5) {
      const batch = await Promise.all(Array.from({ length: 5 }, (_, i) => postRaw((i % 2 ? a : b).token, mebibyte)));
      expect(
        batch.map((r) => r.status),
        JSON.stringify(batch[0]!.body),
      ).to.deep.equal(Array(5).fill(400));
    }
    const refused = await api('POST', `/api/im/ingest/${a.token}`, { body: { summary: 'late' } });
    expectError(refused, 429, 'imIngestByteBudgetExceeded');
    expect(refused.body.data.retryAfter).to.be.a('number').within(1, 3600);
    expectError(await postRaw(b.token, '{"summary":"also late"}'), 429, 'imIngestByteBudgetExceeded');
    // Declares a body it never sends: only a verdict reached before reading can answer.
    const { url } = await testServer();
    const early = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${url}/api/im/ingest/${a.token}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': '1000' },
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
  });
});
