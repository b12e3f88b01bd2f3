import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow, aCustomerToken, aMember } from '../../../support/identity-fixtures';
import { aMonitorRow, aResult, record } from '../../../support/results-fixtures';
import { testClock } from '../../../support/test-clock';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

async function aWebsite(overrides: Parameters<typeof aMonitorRow>[2] = {}) {
  const org = await anOrganization();
  const customerId = await aCustomerRow(org.user.organizationId);
  return { org, customerId, monitor: await aMonitorRow(org.user.organizationId, customerId, overrides) };
}

describe('GET /api/websites/{id}/check-history', () => {
  it('pages stored results newest first, per location, by publicId or legacy id', async () => {
    const { org, monitor } = await aWebsite({ locations: ['eu', 'us'], consecutiveChecks: 10 });
    const t0 = new Date(testClock.now().getTime() - 30 * MINUTE);
    for (let i = 0; i < 3; i += 1) {
      await record(monitor, 'eu', aResult('up', new Date(t0.getTime() + i * MINUTE)));
      await record(monitor, 'us', aResult(i === 2 ? 'down' : 'up', new Date(t0.getTime() + i * MINUTE + 1000)));
    }
    const first = await api('GET', `/api/websites/${monitor.publicId}/check-history`, { token: org.token, query: { perPage: '4' } });
    expect(first.status).to.equal(200);
    expect(first.body).to.include({ total: 6, page: 1, perPage: 4 });
    expect(first.body.items).to.have.length(4);
    expect(first.body.items[0]).to.deep.equal({
      checkedAt: new Date(t0.getTime() + 2 * MINUTE + 1000).toISOString(),
      location: 'us',
      status: 'down',
      responseTimeMs: null,
      reasonCode: 'timeout',
      message: 'no answer within 30 s',
      timings: { dnsMs: 3, connectMs: 12, tlsMs: 20, firstByteMs: 80, totalMs: null },
      evidence: { httpStatus: null, headers: { server: 'nginx' } },
      detailKept: true,
    });
    const second = await api('GET', `/api/websites/${monitor.id}/check-history`, { token: org.token, query: { perPage: '4', page: '2' } });
    expect(second.body.items.map((i: { location: string }) => i.location)).to.deep.equal(['us', 'eu']);
    const eu = await api('GET', `/api/websites/${monitor.id}/check-history`, { token: org.token, query: { location: 'eu' } });
    expect(eu.body.total).to.equal(3);
    expect(eu.body.items.every((i: { location: string }) => i.location === 'eu')).to.equal(true);
    const older = await api('GET', `/api/websites/${monitor.id}/check-history`, {
      token: org.token,
      query: { from: t0.toISOString(), to: new Date(t0.getTime() + 500).toISOString() },
    });
    expect(older.body.total).to.equal(1);
    const nowhere = await api('GET', `/api/websites/${monitor.id}/check-history`, { token: org.token, query: { location: 'mars' } });
    expect(nowhere.body).to.include({ total: 0 });
  });

  it('answers invalidDateRange when from or to is not a date, or from is after to', async () => {
    const { org, monitor } = await aWebsite();
    const path = `/api/websites/${monitor.publicId}/check-history`;
    for (const query of <Record<string, string>[]>[
      { from: 'yesterday' },
      { to: '2026-13-45' },
      { from: '' },
      { from: '1700000000' },
      { from: '2026-11-22T10:00:00Z', to: '2026-11-21T10:00:00Z' },
    ]) {
      expectError(await api('GET', path, { token: org.token, query }), 400, 'invalidDateRange');
    }
    expectError(
      await api('GET', `/api/websites/${monitor.publicId}/uptime-stats`, { token: org.token, query: { to: 'soon' } }),
      400,
      'invalidDateRange',
    );
    const fine = await api('GET', path, { token: org.token, query: { from: '2026-01-01', to: '2026-01-01T00:00:00Z' } });
    expect(fine.status).to.equal(200);
  });

  it("is websiteNotFound outside the caller's scope", async () => {
    const { org, customerId, monitor } = await aWebsite();
    const stranger = await anOrganization('stranger');
    expectError(await api('GET', `/api/websites/${monitor.publicId}/check-history`, { token: stranger.token }), 404, 'websiteNotFound');
    expectError(await api('GET', `/api/websites/${monitor.id}/uptime-stats`, { token: stranger.token }), 404, 'websiteNotFound');
    expectError(await api('GET', '/api/websites/not-an-id/check-history', { token: org.token }), 404, 'websiteNotFound');
    const otherCustomer = await aCustomerRow(org.user.organizationId);
    const theirToken = await aCustomerToken(org.token, otherCustomer);
    expectError(await api('GET', `/api/websites/${monitor.publicId}/check-history`, { token: theirToken }), 404, 'websiteNotFound');
    const ownToken = await aCustomerToken(org.token, customerId);
    expect((await api('GET', `/api/websites/${monitor.publicId}/check-history`, { token: ownToken })).status).to.equal(200);
    const readonly = await aMember(org, 'readonly');
    expect((await api('GET', `/api/websites/${monitor.publicId}/uptime-stats`, { token: readonly.token })).status).to.equal(200);
  });
});

describe('GET /api/websites/{id}/uptime-stats', () => {
  it('weights time by results and counts time without results as unknown, never as up', async () => {
    const { org, monitor } = await aWebsite({ consecutiveChecks: 100 });
    const start = new Date(Math.floor((testClock.now().getTime() - 3 * HOUR) / MINUTE) * MINUTE);
    const at = (minutes: number) => new Date(start.getTime() + minutes * MINUTE);
    for (let m = 0; m < 30; m += 1)
      await record(
        monitor,
        'eu',
        aResult('up', at(m), { timings: { dnsMs: 1, connectMs: 1, tlsMs: 1, firstByteMs: 1, totalMs: 100 + m } }),
      );
    for (let m = 45; m < 60; m += 1) await record(monitor, 'eu', aResult('down', at(m)));
    const response = await api('GET', `/api/websites/${monitor.publicId}/uptime-stats`, {
      token: org.token,
      query: { from: at(0).toISOString(), to: at(60).toISOString() },
    });
    expect(response.status).to.equal(200);
    // Up: 29 results x 60 s + the last one's 120 s cap; then 15 minutes without results; down 15 x 60 s.
    // Shares of the window (3,600 s): 51.67 + 25.00 + 23.33 = 100; of the 2,760 s observed, 67.39 % up.
    expect(response.body).to.deep.include({
      period: 'range',
      upSeconds: 1860,
      degradedSeconds: 0,
      downSeconds: 900,
      unknownSeconds: 840,
      uptimePercent: 51.67,
      downtimePercent: 25,
      degradedPercent: 0,
      unknownPercent: 23.33,
      uptimeOfKnownPercent: 67.39,
      locations: ['eu'],
    });
    expect(response.body.checks).to.deep.equal({ total: 45, up: 30, degraded: 0, down: 15 });
    expect(response.body.responseTime.avgMs).to.equal(115);
    expect(response.body.responseTime.p50Ms).to.be.within(100, 120);
    expect(response.body.responseTime.p99Ms).to.be.within(120, 140);
  });

  it('shares one denominator, the window of every location, and apportions rounding so the shares add up to 100.00', async () => {
    const { org, monitor } = await aWebsite({ locations: ['eu', 'us'], consecutiveChecks: 1000 });
    const start = new Date(Math.floor((testClock.now().getTime() - 3 * HOUR) / MINUTE) * MINUTE);
    const at = (minutes: number) => new Date(start.getTime() + minutes * MINUTE);
    // eu: up for 20 minutes, degraded for 20, down for 20; us: silent for 40, down for 20. Window: 2 x 3,600 s.
    for (let m = 0; m < 60; m += 1) {
      await record(monitor, 'eu', aResult(m < 20 ? 'up' : m < 40 ? 'degraded' : 'down', at(m)));
      if (m >= 40) await record(monitor, 'us', aResult('down', at(m)));
    }
    const response = await api('GET', `/api/websites/${monitor.publicId}/uptime-stats`, {
      token: org.token,
      query: { from: at(0).toISOString(), to: at(60).toISOString() },
    });
    expect(response.status).to.equal(200);
    const { responseTime: _times, from: _from, to: _to, monitoredSince: _since, ...figures } = response.body;
    // Thirds: rounding each share alone would give 33.33 x 3 = 99.99; the largest remainder goes to uptime.
    expect(figures).to.deep.equal({
      period: 'range',
      locations: ['eu', 'us'],
      uptimePercent: 33.34,
      degradedPercent: 16.67,
      downtimePercent: 33.33,
      unknownPercent: 33.33,
      uptimeOfKnownPercent: 50,
      upSeconds: 1200,
      degradedSeconds: 1200,
      downSeconds: 2400,
      unknownSeconds: 2400,
      checks: { total: 80, up: 20, degraded: 20, down: 40 },
    });
    expect(
      Math.round(figures.uptimePercent * 100) + Math.round(figures.downtimePercent * 100) + Math.round(figures.unknownPercent * 100),
    ).to.equal(10_000);
  });

  it('knows nothing of a monitor without results yet: every share null, monitoredSince null; 24h by default', async () => {
    const { org, monitor } = await aWebsite({ createdAt: new Date(testClock.now().getTime() - 2 * HOUR) });
    const stats = await api('GET', `/api/websites/${monitor.publicId}/uptime-stats`, { token: org.token });
    expect(stats.status).to.equal(200);
    expect(stats.body).to.deep.include({
      period: '24h',
      monitoredSince: null,
      uptimePercent: null,
      downtimePercent: null,
      degradedPercent: null,
      unknownPercent: null,
      uptimeOfKnownPercent: null,
      upSeconds: 0,
      unknownSeconds: 0,
    });
    const week = await api('GET', `/api/websites/${monitor.publicId}/uptime-stats`, { token: org.token, query: { period: '7d' } });
    expect(week.body.period).to.equal('7d');
    expect(new Date(week.body.to).getTime() - new Date(week.body.from).getTime()).to.equal(7 * 24 * HOUR);
    expectError(
      await api('GET', `/api/websites/${monitor.publicId}/uptime-stats`, { token: org.token, query: { period: '1y' } }),
      400,
      'validationFailed',
    );
  });

  it('measures a young monitor since its first check, not since its creation nor over the whole period', async () => {
    const now = testClock.now().getTime();
    const { org, monitor } = await aWebsite({ createdAt: new Date(now - 10 * MINUTE), checkIntervalSeconds: 60 });
    // Created ten minutes ago, checked every minute for the last seven: all up.
    const first = new Date(Math.floor((now - 7 * MINUTE) / 1000) * 1000);
    for (let m = 0; m < 7; m += 1) await record(monitor, 'eu', aResult('up', new Date(first.getTime() + m * MINUTE)));
    const stats = await api('GET', `/api/websites/${monitor.publicId}/uptime-stats`, { token: org.token, query: { period: '30d' } });
    expect(stats.status).to.equal(200);
    expect(stats.body).to.deep.include({
      period: '30d',
      monitoredSince: first.toISOString(),
      uptimePercent: 100,
      downtimePercent: 0,
      unknownPercent: 0,
    });
  });
});
