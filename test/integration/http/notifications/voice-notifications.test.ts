import { expect } from 'chai';
import { apiAt } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { TwilioPeer, twilioError } from '../../../support/peers/twilio-peer';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { waitFor } from '../../../support/wait-for';
import type { RunningApplication } from '../../../../src/main/application';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const HOST = 'api.voice-fixture.com';
const ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef';
const AUTH_TOKEN = 'twilio-auth-token';
const FROM = '+15005550006';

let numberCounter = 0;
const aPhoneNumber = () => `+1415556${String(1000 + (++numberCounter % 9000)).padStart(4, '0')}`;

/**
 * The voice channel type end to end: created over the API, its test call placed by the test button
 * through the ledger and the Twilio adapter (the deployment's SMS account) to a loopback
 * Twilio-shaped Calls API checking the documented request, through the target policy.
 */
describe('voice channels (a loopback Twilio Calls API)', () => {
  const twilio = new TwilioPeer(HOST, ACCOUNT_SID);
  let service: DeliveryService;
  let app: RunningApplication;

  const call = (method: string, path: string, options: Parameters<typeof apiAt>[3] = {}) => apiAt(app.url, method, path, options);
  async function aChannel(token: string, phoneNumbers: string[]): Promise<Record<string, any>> {
    const created = await call('POST', '/api/notification-channels', {
      token,
      body: { name: 'On-call phones', type: 'voice', config: { phoneNumbers } },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body;
  }
  const deliveryOf = async (id: string) =>
    (await app.database.sql.query<Record<string, any>>(sql`SELECT * FROM notification_deliveries WHERE id = ${id}`))[0];
  const attemptsListed = async (token: string, channelId: string) => {
    const listed = await call('GET', `/api/notification-deliveries?channelId=${channelId}`, { token });
    return listed.body.items.map((d: Record<string, any>) => ({
      status: d.status,
      attempts: d.attempts.map((a: Record<string, unknown>) => [a.attempt, a.statusCode, a.outcome]),
    }));
  };

  before(async () => {
    await twilio.start();
    service = await aDeliveryService([HOST], {
      NOTIFY_RETRY_MAX_MS: '200',
      SMS_PROVIDER_URL: twilio.baseUrl,
      SMS_ACCOUNT_SID: ACCOUNT_SID,
      SMS_AUTH_TOKEN: AUTH_TOKEN,
      SMS_FROM: FROM,
    });
    app = service.app;
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await twilio.stop();
  });

  it('calls every number through the Calls API with TwiML saying the test message, twice', async () => {
    const [first, second] = [aPhoneNumber(), aPhoneNumber()];
    const org = await anOrganization('voice-test');
    const channel = await aChannel(org.token, [first!, second!]);
    expect(channel.config).to.deep.equal({ phoneNumbers: [first, second] });

    const queued = await call('POST', `/api/notification-channels/${channel.id}/test`, { token: org.token });
    expect(queued.status, JSON.stringify(queued.body)).to.equal(200);
    expect(queued.body).to.deep.include({ channelType: 'voice', event: 'test', status: 'delivered' });
    expect(queued.body.attempt).to.include({ statusCode: 201 });
    expect(twilio.rejected).to.deep.equal([]);
    const said =
      'Test notification: This is a test notification for the channel &quot;On-call phones&quot;: no incident happened. If you can read this, the channel works.';
    for (const number of [first!, second!]) {
      const [request, ...more] = twilio.to(number);
      expect(more).to.deep.equal([]);
      expect(request!.path).to.equal(`/2010-04-01/Accounts/${ACCOUNT_SID}/Calls.json`);
      expect(request!.authorization).to.equal(`Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`);
      expect(request!.form).to.deep.equal({
        To: number,
        From: FROM,
        Twiml: `<Response><Say>${said}</Say><Pause length="1"/><Say>${said}</Say></Response>`,
      });
    }
    const [delivery] = await attemptsListed(org.token, channel.publicId);
    expect(delivery).to.deep.equal({ status: 'delivered', attempts: [[1, 201, 'delivered']] });
  });

  it('records a 401 (Twilio 20003: the account refused) as a refusal, at once, in the ledger and the channel’s health', async () => {
    const number = aPhoneNumber();
    twilio.answer(number, twilioError(401, 20003, 'Authenticate'));
    const org = await anOrganization('voice-401');
    const channel = await aChannel(org.token, [number]);
    const queued = await call('POST', `/api/notification-channels/${channel.id}/test`, { token: org.token });
    expect(queued.body).to.deep.include({ status: 'failed' });
    expect(queued.body.attempt).to.include({ statusCode: 401 });
    const reason = '1 of 1 calls not placed: Twilio 20003: Authenticate';
    expect(await deliveryOf(queued.body.id)).to.include({ status: 'failed', attempts: 1, last_error: reason });
    expect((await call('GET', `/api/notification-channels/${channel.id}`, { token: org.token })).body.health).to.include({
      consecutiveFailures: 1,
      lastFailureReason: reason,
    });
  });

  it('retries a 429 (Retry-After) through the ledger until the call is placed', async () => {
    const number = aPhoneNumber();
    twilio.answer(number, { ...twilioError(429, 20429, 'Too Many Requests'), headers: { 'retry-after': '1' } });
    const org = await anOrganization('voice-429');
    const channel = await aChannel(org.token, [number]);
    const queued = await call('POST', `/api/notification-channels/${channel.id}/test`, { token: org.token });
    expect(queued.body).to.deep.include({ status: 'retry' });
    service.worker('voice-429-worker');
    await waitFor(async () => (await deliveryOf(queued.body.id))?.status === 'delivered', { what: 'the call placed after the 429' });
    expect(await attemptsListed(org.token, channel.publicId)).to.deep.equal([
      {
        status: 'delivered',
        attempts: [
          [1, 429, 'retry'],
          [2, 201, 'delivered'],
        ],
      },
    ]);
    expect(twilio.to(number)).to.have.length(2);
    expect(twilio.rejected).to.deep.equal([]);
  });

  it('refuses a number not in E.164 over the API, naming it', async () => {
    const org = await anOrganization('voice-refuse');
    const refused = await call('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'x', type: 'voice', config: { phoneNumbers: ['030 1234567'] } },
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.data).to.deep.include({ field: '/config/phoneNumbers/0', reason: 'notE164' });
  });
});
