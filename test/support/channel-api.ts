import { expect } from 'chai';
import { apiAt } from './http-client';
import { waitFor } from './wait-for';
import type { DeliveryService } from './delivery-service';
import { sql } from '../../src/infrastructure/persistence/sql';

type Row = Record<string, any>;

/**
 * What a notifier's end-to-end test does over the HTTP API of a delivery service (aDeliveryService):
 * create a channel, press its test button, read the delivery ledger and the channel's health, and
 * the two answers every provider's test checks (a refusal failing at once, a 429 retried).
 */
export function channelApi(service: () => DeliveryService) {
  const call = (method: string, path: string, options: Parameters<typeof apiAt>[3] = {}) => apiAt(service().app.url, method, path, options);

  async function createChannel(token: string, type: string, config: Row, name = 'Alerts'): Promise<Row> {
    const created = await call('POST', '/api/notification-channels', { token, body: { name, type, config } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.not.have.property('signingSecret');
    return created.body;
  }

  /** The test button: the delivery as the API answers it (its first attempt made). */
  async function sendTest(token: string, channel: Row): Promise<Row> {
    const queued = await call('POST', `/api/notification-channels/${channel.id}/test`, { token });
    expect(queued.status, JSON.stringify(queued.body)).to.equal(200);
    return queued.body;
  }

  const deliveryOf = async (id: string): Promise<Row | undefined> =>
    (await service().app.database.sql.query<Row>(sql`SELECT * FROM notification_deliveries WHERE id = ${id}`))[0];

  /** The channel's deliveries as the ledger lists them: status, then [attempt, statusCode, outcome] per attempt. */
  async function attemptsListed(token: string, channelPublicId: string) {
    const listed = await call('GET', `/api/notification-deliveries?channelId=${channelPublicId}`, { token });
    expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
    return listed.body.items.map((d: Row) => ({
      status: d.status,
      attempts: d.attempts.map((a: Row) => [a.attempt, a.statusCode, a.outcome]),
    }));
  }

  /** A refusal (401, 404...): the test failed at its first attempt, the ledger says so, the channel degraded. */
  async function expectFailedAtOnce(token: string, channel: Row, status: number): Promise<Row> {
    const queued = await sendTest(token, channel);
    expect(queued).to.deep.include({ status: 'failed' });
    expect(queued.attempt).to.include({ statusCode: status });
    expect(await deliveryOf(queued.id)).to.include({ status: 'failed', attempts: 1, last_error: `Answered ${status}` });
    expect(await attemptsListed(token, channel.publicId)).to.deep.equal([{ status: 'failed', attempts: [[1, status, 'failed']] }]);
    const read = await call('GET', `/api/notification-channels/${channel.id}`, { token });
    expect(read.body.health).to.include({ consecutiveFailures: 1, lastFailureReason: `Answered ${status}` });
    return queued;
  }

  /** A 429: the test left to retry, a worker delivers it on the second attempt, both attempts in the ledger. */
  async function expectRetriedAfter429(token: string, channel: Row, okStatus: number, worker: string): Promise<Row> {
    const queued = await sendTest(token, channel);
    expect(queued).to.deep.include({ status: 'retry' });
    expect(queued.attempt).to.include({ statusCode: 429 });
    service().worker(worker);
    await waitFor(async () => (await deliveryOf(queued.id))?.status === 'delivered', { what: 'the test delivered after the 429' });
    expect(await attemptsListed(token, channel.publicId)).to.deep.equal([
      {
        status: 'delivered',
        attempts: [
          [1, 429, 'retry'],
          [2, okStatus, 'delivered'],
        ],
      },
    ]);
    return queued;
  }

  return { call, createChannel, sendTest, deliveryOf, attemptsListed, expectFailedAtOnce, expectRetriedAfter429 };
}
