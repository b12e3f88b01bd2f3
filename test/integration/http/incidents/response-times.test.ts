import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow, aResult, clearOfRollups, record } from '../../../support/results-fixtures';
import { testClock } from '../../../support/test-clock';

const MINUTE = 60_000;

interface Point {
  start: string;
  median: number | null;
  p95: number | null;
  checks: number;
  degraded: number;
  down: number;
}

describe('GET /api/websites/{id}/response-times', () => {
  async function aMonitorWithResults() {
    const org = await anOrganization();
    const monitor = await aMonitorRow(org.user.organizationId, await aCustomerRow(org.user.organizationId), {
      locations: ['eu', 'us'],
      consecutiveChecks: 10,
    });
    await clearOfRollups(2 * 3_600_000);
    // Five results in one minute at eu (one down), one at us, all in the minute before the current one.
    const minute = Math.floor(testClock.now().getTime() / MINUTE) * MINUTE - MINUTE;
    const times = [100, 200, 300, 400];
    for (const [i, totalMs] of times.entries()) {
      await record(
        monitor,
        'eu',
        aResult('up', new Date(minute + i * 1000), { timings: { dnsMs: 1, connectMs: 1, tlsMs: 1, firstByteMs: 1, totalMs } }),
      );
    }
    await record(monitor, 'eu', aResult('down', new Date(minute + 5000)));
    await record(
      monitor,
      'us',
      aResult('degraded', new Date(minute + 6000), { timings: { dnsMs: 1, connectMs: 1, tlsMs: 1, firstByteMs: 1, totalMs: 900 } }),
    );
    return { org, monitor, minute };
  }

  it('gives each location a point per minute of the last hour with median, p95 and failures', async () => {
    const { org, monitor, minute } = await aMonitorWithResults();
    const response = await api('GET', `/api/websites/${monitor.publicId}/response-times`, { token: org.token, query: { period: '1h' } });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body).to.include({ period: '1h', bucketSeconds: 60 });
    const [eu, us] = response.body.locations as Array<{ location: string; points: Point[] }>;
    expect([eu!.location, us!.location]).to.deep.equal(['eu', 'us']);
    expect(eu!.points).to.have.length(60);
    // The minute of the results (the clock may have moved on a minute since they were recorded).
    const at = (points: Point[]) => points.find((p) => p.start === new Date(minute).toISOString())!;
    const point = at(eu!.points);
    expect(point).to.include({ checks: 5, degraded: 0, down: 1 });
    // Four response times 100..400 ms: the median between the 2nd and 3rd, the p95 in the 400 ms bucket.
    expect(point.median).to.be.within(180, 260);
    expect(point.p95).to.be.within(400, 450);
    expect(at(us!.points)).to.include({ checks: 1, degraded: 1, down: 0 });
    expect(at(us!.points).median).to.be.within(800, 1000);
    expect(eu!.points[0]).to.deep.include({ checks: 0, median: null, p95: null });
  });

  it('gives the same checks over 24 hours and 7 days, in wider buckets', async () => {
    const { org, monitor } = await aMonitorWithResults();
    const total = async (period: string) => {
      const response = await api('GET', `/api/websites/${monitor.id}/response-times`, { token: org.token, query: { period } });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const points = (response.body.locations as Array<{ points: Point[] }>).flatMap((l) => l.points);
      return { count: points.length, checks: points.reduce((sum, p) => sum + p.checks, 0), bucketSeconds: response.body.bucketSeconds };
    };
    expect(await total('24h')).to.deep.equal({ count: 2 * 96, checks: 6, bucketSeconds: 900 });
    expect(await total('7d')).to.deep.equal({ count: 2 * 168, checks: 6, bucketSeconds: 3600 });
    expect((await total('90d')).count).to.equal(2 * 90);
  });

  it("is websiteNotFound outside the caller's scope and refuses an unknown period", async () => {
    const { org, monitor } = await aMonitorWithResults();
    const stranger = await anOrganization('stranger');
    expectError(await api('GET', `/api/websites/${monitor.publicId}/response-times`, { token: stranger.token }), 404, 'websiteNotFound');
    expectError(
      await api('GET', `/api/websites/${monitor.publicId}/response-times`, { token: org.token, query: { period: '2y' } }),
      400,
      'validationFailed',
    );
  });
});
