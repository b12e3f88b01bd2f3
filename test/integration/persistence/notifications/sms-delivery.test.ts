import { expect } from 'chai';
import { api, apiAt } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aPackage } from '../../../support/tenancy-fixtures';
import { aMonitoredCustomer, aWebsite, storedMonitor } from '../../../support/monitoring-fixtures';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { waitFor } from '../../../support/wait-for';
import { TwilioPeer, twilioError } from '../../../support/peers/twilio-peer';
import type { RunningApplication } from '../../../../src/main/application';
import { SMS_QUOTA, type SmsQuota } from '../../../../src/application/notifications/ports';
import { smsMonthOf } from '../../../../src/domain/tenancy/sms-month';
import { OutboxIncidentEvents } from '../../../support/outbox-events';
import { standalone } from '../../../support/unit-of-work';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const SMS_HOST = 'api.sms-fixture.com';
const ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef';
const AUTH_TOKEN = 'twilio-auth-token';
const FROM = '+15005550006';

let numberCounter = 0;
const aPhoneNumber = () => `+1415555${String(1000 + (++numberCounter % 9000)).padStart(4, '0')}`;

/**
 * SMS deliveries end to end: the ledger's worker, the SMS sender and the Twilio adapter through the
 * real target policy (the peer's public-looking name resolves to 127.0.0.1 in the test DNS, loopback
 * allowlisted), counted in the customer's usage that GET /api/customers/sms-usage reports.
 */
describe('SMS delivery (loopback Twilio-shaped server)', () => {
  const twilio = new TwilioPeer(SMS_HOST, ACCOUNT_SID);
  let service: DeliveryService;
  let app: RunningApplication;
  const aWorker = (owner: string) => service.worker(owner);

  /** An organization with a customer on a package of `allowance` SMS a month, a monitor of it, and an SMS channel of the customer (or of the organization). */
  async function aSetup(label: string, allowance: number, phoneNumbers: string[], { organizationChannel = false } = {}) {
    const org = await anOrganization(label);
    const pack = await aPackage(org.token, { smsMonthlyAllowance: allowance });
    const customer = await aMonitoredCustomer(org.token, { packageId: pack.id });
    const website = await aWebsite().forCustomer(customer.id).create(org.token);
    const monitor = await storedMonitor(website.publicId);
    const created = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: label, type: 'sms', config: { phoneNumbers }, ...(organizationChannel ? {} : { customerId: customer.id }) },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return { org, customer, monitorId: Number(monitor.id), channel: created.body };
  }

  let incidentCounter = 0;
  async function anIncidentOpened(setup: Awaited<ReturnType<typeof aSetup>>, summary = 'www.monitor-fixture.com is down') {
    await new OutboxIncidentEvents(standalone(app.database.sql)).publish({
      kind: 'incidentOpened',
      organizationId: setup.org.user.organizationId,
      customerId: setup.customer.id,
      monitorId: setup.monitorId,
      incidentPublicId: `inc-sms-${Date.now()}-${++incidentCounter}`,
      occurredAt: new Date('2026-11-23T10:00:00Z'),
      summary,
      data: {},
    });
  }

  const deliveriesOf = (channelPublicId: string) =>
    app.database.sql.query<Record<string, any>>(
      sql`SELECT * FROM notification_deliveries WHERE channel_public_id = ${channelPublicId} ORDER BY created_at`,
    );
  const attemptsOf = (deliveryId: string) =>
    app.database.sql.query<Record<string, any>>(
      sql`SELECT * FROM notification_delivery_attempts WHERE delivery_id = ${deliveryId} ORDER BY attempt`,
    );
  const settled = async (channelPublicId: string, count = 1) =>
    (await waitFor(
      async () => {
        const rows = await deliveriesOf(channelPublicId);
        return rows.length >= count && rows.every((r) => r.status !== 'pending') ? rows : null;
      },
      { what: 'the SMS deliveries settled' },
    ))!;
  /** Read through this application: its clock (the real one, as the sender's) decides the month, not the shared test server's. */
  async function usageOf(setup: Awaited<ReturnType<typeof aSetup>>) {
    const usage = await apiAt(app.url, 'GET', '/api/customers/sms-usage', { token: setup.org.token });
    expect(usage.status).to.equal(200);
    const record = await apiAt(app.url, 'GET', `/api/customers/${setup.customer.id}`, { token: setup.org.token });
    const [row] = usage.body.customers;
    expect(record.body.smsUsageCurrentMonth).to.equal(row.smsUsed);
    return { smsUsed: row.smsUsed, smsAllowance: row.smsAllowance, smsRemaining: row.smsRemaining };
  }

  before(async () => {
    await twilio.start();
    service = await aDeliveryService([SMS_HOST], {
      NOTIFY_MAX_ATTEMPTS: '4',
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

  it("sends one message per number to Twilio's Messages API (basic auth, form To/From/Body) and counts each in the customer's usage", async () => {
    const [first, second] = [aPhoneNumber(), aPhoneNumber()];
    const setup = await aSetup('sms-send', 10, [first!, second!]);
    await anIncidentOpened(setup);
    aWorker('sms-a');
    const [delivery] = await settled(setup.channel.publicId);
    expect(delivery).to.include({ status: 'delivered', attempts: 1 });
    const requests = [...twilio.to(first!), ...twilio.to(second!)];
    expect(requests).to.have.length(2);
    for (const request of requests) {
      expect(request.path).to.equal(`/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`);
      expect(request.authorization).to.equal(`Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`);
      expect(request.form).to.deep.equal({ To: request.form.To, From: FROM, Body: 'Incident opened: www.monitor-fixture.com is down' });
    }
    const [attempt] = await attemptsOf(delivery!.id);
    expect(attempt).to.include({ status_code: 201, outcome: 'delivered' });
    expect(attempt!.response_excerpt).to.match(new RegExp(`^\\${first}: SM\\d{32}\\n\\${second}: SM\\d{32}$`));
    expect(await usageOf(setup)).to.deep.equal({ smsUsed: 2, smsAllowance: 10, smsRemaining: 8 });
  });

  it('retries a 429 and a 500 through the ledger, then delivers, counting the one message sent', async () => {
    const number = aPhoneNumber();
    twilio.answer(number, twilioError(429, 20429, 'Too Many Requests'), twilioError(500, 20500, 'Internal Server Error'));
    const setup = await aSetup('sms-retry', 10, [number]);
    await anIncidentOpened(setup);
    aWorker('sms-b');
    const [delivery] = await settled(setup.channel.publicId);
    expect(delivery).to.include({ status: 'delivered', attempts: 3 });
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts.map((a) => [a.attempt, a.status_code, a.outcome, a.error])).to.deep.equal([
      [1, 429, 'retry', '1 of 1 SMS not sent: Twilio 20429: Too Many Requests'],
      [2, 500, 'retry', '1 of 1 SMS not sent: Twilio 20500: Internal Server Error'],
      [3, 201, 'delivered', null],
    ]);
    expect(twilio.to(number)).to.have.length(3);
    expect(await usageOf(setup)).to.deep.equal({ smsUsed: 1, smsAllowance: 10, smsRemaining: 9 });
  });

  it("fails at once on Twilio's 400 error (21211, an invalid number), counting nothing", async () => {
    const number = aPhoneNumber();
    twilio.answer(number, twilioError(400, 21211, `The 'To' number ${number} is not a valid phone number.`));
    const setup = await aSetup('sms-invalid', 10, [number]);
    await anIncidentOpened(setup);
    aWorker('sms-c');
    const [delivery] = await settled(setup.channel.publicId);
    expect(delivery).to.include({
      status: 'failed',
      attempts: 1,
      last_error: `1 of 1 SMS not sent: Twilio 21211: The 'To' number ${number} is not a valid phone number.`,
    });
    expect(twilio.to(number)).to.have.length(1);
    expect(await usageOf(setup)).to.deep.equal({ smsUsed: 0, smsAllowance: 10, smsRemaining: 10 });
  });

  it("refuses for good with smsAllowanceExhausted once the month's allowance cannot cover the channel, sending nothing", async () => {
    const [first, second] = [aPhoneNumber(), aPhoneNumber()];
    const setup = await aSetup('sms-allowance', 3, [first!, second!]);
    await anIncidentOpened(setup);
    aWorker('sms-d');
    await settled(setup.channel.publicId);
    await anIncidentOpened(setup, 'www.monitor-fixture.com is down again');
    const [sent, refused] = await settled(setup.channel.publicId, 2);
    expect(sent).to.include({ status: 'delivered' });
    expect(refused).to.include({
      status: 'failed',
      attempts: 1,
      last_error: 'smsAllowanceExhausted: 2 of 3 SMS this month used, 2 needed',
    });
    const [attempt] = await attemptsOf(refused!.id);
    expect(attempt).to.include({ outcome: 'failed', error: 'smsAllowanceExhausted: 2 of 3 SMS this month used, 2 needed' });
    expect([...twilio.to(first!), ...twilio.to(second!)].map((r) => r.form.Body)).to.deep.equal([
      'Incident opened: www.monitor-fixture.com is down',
      'Incident opened: www.monitor-fixture.com is down',
    ]);
    expect(await usageOf(setup)).to.deep.equal({ smsUsed: 2, smsAllowance: 3, smsRemaining: 1 });
  });

  it("an organization's own SMS channel is not limited by, nor counted in, a customer's allowance", async () => {
    const number = aPhoneNumber();
    const setup = await aSetup('sms-organization', 0, [number], { organizationChannel: true });
    await anIncidentOpened(setup);
    aWorker('sms-e');
    const [delivery] = await settled(setup.channel.publicId);
    expect(delivery).to.include({ status: 'delivered' });
    expect(twilio.to(number)).to.have.length(1);
    expect(await usageOf(setup)).to.deep.equal({ smsUsed: 0, smsAllowance: 0, smsRemaining: 0 });
  });

  it('concurrent reservations never overshoot the allowance; a release gives back', async () => {
    const setup = await aSetup('sms-race', 4, [aPhoneNumber()]);
    const quota = app.container.get<SmsQuota>(SMS_QUOTA);
    const organizationId = setup.org.user.organizationId;
    const month = smsMonthOf(new Date());
    const answers = await Promise.all(Array.from({ length: 10 }, () => quota.reserve(organizationId, setup.customer.id, month, 1)));
    expect(answers.filter((a) => a.granted)).to.have.length(4);
    expect(answers.find((a) => !a.granted)).to.deep.equal({ granted: false, used: 4, allowance: 4 });
    await quota.release(organizationId, setup.customer.id, month, 1);
    expect(await usageOf(setup)).to.deep.equal({ smsUsed: 3, smsAllowance: 4, smsRemaining: 1 });
    expect(await quota.reserve(organizationId + 1_000_000, setup.customer.id, month, 1)).to.deep.include({ granted: false });
  });
});
