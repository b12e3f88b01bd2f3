import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { testCertificates } from '../../../support/peers/certificates';
import { SmtpPeer } from '../../../support/peers/smtp-peer';
import { CountingReceiver } from '../../../support/peers/counting-receiver';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { waitFor } from '../../../support/wait-for';
import { testClock } from '../../../support/test-clock';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const FAST_HOST = 'fast.pooled-fixture.com';
const SLOW_HOST = 'slow.pooled-fixture.com';
const MAIL_HOST = 'mail.pooled-fixture.com';

/**
 * The deliverer's kept connections, end to end: manual alerts through the ledger and the worker's
 * rounds to loopback receivers named in the test DNS (the real target policy, loopback allowlisted).
 */
describe('pooled delivery (worker rounds, loopback receivers)', () => {
  const fast = new CountingReceiver('127.0.0.1');
  const slow = new CountingReceiver('127.0.0.1');
  const smtp = new SmtpPeer(testCertificates().selfSigned, { starttls: false });
  let service: DeliveryService;

  const runner = () => service.app.database.sql;
  const statusOf = async (deliveryId: string) =>
    (await runner().query<{ status: string }>(sql`SELECT status FROM notification_deliveries WHERE id = ${deliveryId}`))[0]?.status;

  async function aChannel(token: string, name: string, body: Record<string, unknown>): Promise<string> {
    const created = await api('POST', '/api/notification-channels', { token, body: { name, ...body } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body.publicId as string;
  }
  /** A manual alert to these channels: its deliveries' ids in the channels' order. */
  async function anAlert(token: string, channelIds: string[], title = 'Generators on'): Promise<string[]> {
    const sent = await api('POST', '/api/notifications/send-alert', {
      token,
      body: { title, message: 'Running on generators.', severity: 'info', channelIds },
    });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(202);
    const byChannel = new Map((sent.body.deliveries as Array<{ id: string; channelId: string }>).map((d) => [d.channelId, d.id]));
    return channelIds.map((id) => byChannel.get(id)!);
  }

  before(async () => {
    await Promise.all([fast.start(), slow.start(), smtp.start()]);
    // The alerts are written through the shared test server, whose clock runs ahead of real time
    // once a test advanced it: the deliverer reads "due" on that same clock.
    service = await aDeliveryService(
      [FAST_HOST, SLOW_HOST, MAIL_HOST],
      {
        NOTIFY_HTTP_SOCKETS_PER_ORIGIN: '2',
        SMTP_URL: `smtp://user:secret@${MAIL_HOST}:${smtp.port}`,
        SMTP_FROM: 'alerts@platform.example',
      },
      { clock: testClock },
    );
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await Promise.all([fast.stop(), slow.stop(), smtp.stop()]);
  });

  it("delivers one receiver's alerts, round after round, over one kept connection, and at most two at once", async () => {
    const org = await anOrganization('pooled-reuse');
    const hook = await aChannel(org.token, 'fast', { type: 'webhook', config: { url: `http://${FAST_HOST}:${fast.port}/reuse` } });
    const worker = service.worker('pooled-reuse', false);
    const before = fast.connections.length;
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(...(await anAlert(org.token, [hook], `Alert ${i}`)));
      await worker.runOnce();
    }
    expect(await Promise.all(ids.map(statusOf))).to.deep.equal(Array(4).fill('delivered'));
    expect(fast.requests.filter((r) => r.path === '/reuse')).to.have.length(4);
    expect(fast.connections.length - before, 'four deliveries in four rounds, one connection').to.equal(1);

    // Six in one round: NOTIFY_HTTP_SOCKETS_PER_ORIGIN=2 bounds the connections, the kept one among them.
    const burst: string[] = [];
    for (let i = 0; i < 6; i++) burst.push(...(await anAlert(org.token, [hook], `Burst ${i}`)));
    await worker.runOnce();
    expect(await Promise.all(burst.map(statusOf))).to.deep.equal(Array(6).fill('delivered'));
    expect(fast.connections.length - before, 'ten deliveries, at most two connections').to.be.at.most(2);
  });

  it("records a fast receiver's delivery while a slow receiver of the same round still holds its answer", async () => {
    const org = await anOrganization('pooled-slow');
    const quick = await aChannel(org.token, 'quick', { type: 'webhook', config: { url: `http://${FAST_HOST}:${fast.port}/quick` } });
    const sluggish = await aChannel(org.token, 'sluggish', {
      type: 'webhook',
      config: { url: `http://${SLOW_HOST}:${slow.port}/sluggish` },
    });
    const [quickId, slowId] = await anAlert(org.token, [quick, sluggish]);
    slow.holding = true;
    const round = service.worker('pooled-slow', false).runOnce();
    try {
      await waitFor(async () => (await statusOf(quickId!)) === 'delivered', { what: "the fast receiver's delivery recorded" });
      expect(slow.held, 'the slow receiver has not answered yet').to.equal(1);
      expect(await statusOf(slowId!)).to.equal('pending');
    } finally {
      slow.release();
    }
    await round;
    expect(await statusOf(slowId!)).to.equal('delivered');
  });

  it('sends mail through one pooled SMTP connection for several messages', async () => {
    const org = await anOrganization('pooled-mail');
    const mail = await aChannel(org.token, 'mail', { type: 'email', config: { recipients: ['oncall@customer.example'] } });
    const worker = service.worker('pooled-mail', false);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(...(await anAlert(org.token, [mail], `Mail ${i}`)));
      await worker.runOnce();
    }
    expect(await Promise.all(ids.map(statusOf))).to.deep.equal(Array(3).fill('delivered'));
    const mine = smtp.messages.filter((m) => m.raw.includes('Mail ') && m.to.includes('oncall@customer.example'));
    expect(mine).to.have.length(3);
    expect(new Set(mine.map((m) => m.connection)).size, 'three messages, one connection').to.equal(1);
  });
});
