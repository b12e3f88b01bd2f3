import { poolTx } from '../../../support/pool-transaction';
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anOrganization } from '../../../support/builders';
import { api } from '../../../support/http-client';
import { testCertificates } from '../../../support/peers/certificates';
import { SmtpPeer } from '../../../support/peers/smtp-peer';
import { WebhookReceiver } from '../../../support/peers/webhook-receiver';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { waitFor } from '../../../support/wait-for';
import { DIRECT_DELIVERIES, type DirectDeliveries, type DirectMessage } from '../../../../src/application/notifications/ports';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../../src/application/shared/transaction';
import type { RunningApplication } from '../../../../src/main/application';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const HOOK_HOST = 'hooks.direct-fixture.com';
const MAIL_HOST = 'mail.direct-fixture.com';
let counter = 0;
const unique = (label: string) => `${label}-${++counter}-${Date.now()}`;

/**
 * Direct messages (to a subscriber, a report's reader, a person paged) through the real ledger and
 * worker to loopback receivers: enqueued in the caller's transaction, once per dedup key, retried
 * and recorded as channel deliveries are.
 */
describe('direct deliveries (loopback receivers)', () => {
  const receiver = new WebhookReceiver(HOOK_HOST);
  const smtp = new SmtpPeer(testCertificates().selfSigned, { starttls: false });
  let service: DeliveryService;
  let app: RunningApplication;
  let direct: DirectDeliveries;
  let tx: TransactionRunner;

  const inContext = <T>(work: () => Promise<T>) => work();
  const rowOf = async (id: string) =>
    (await app.database.sql.query<Record<string, any>>(sql`SELECT * FROM notification_deliveries WHERE id = ${id}`))[0];
  const attemptsOf = (id: string) =>
    app.database.sql.query<Record<string, any>>(
      sql`SELECT * FROM notification_delivery_attempts WHERE delivery_id = ${id} ORDER BY attempt`,
    );

  before(async () => {
    await Promise.all([receiver.start(), smtp.start()]);
    service = await aDeliveryService([HOOK_HOST, MAIL_HOST], {
      NOTIFY_MAX_ATTEMPTS: '4',
      SMTP_URL: `smtp://user:secret@${MAIL_HOST}:${smtp.port}`,
      SMTP_FROM: 'status@platform.example',
    });
    app = service.app;
    direct = app.container.get<DirectDeliveries>(DIRECT_DELIVERIES);
    tx = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await Promise.all([receiver.stop(), smtp.stop()]);
  });

  it('mails one address with its HTML part, List-Unsubscribe headers and an attachment read at send time', async () => {
    const org = await anOrganization('direct-mail');
    const folder = mkdtempSync(join(tmpdir(), 'direct-'));
    writeFileSync(join(folder, 'report.pdf'), '%PDF-1.4 fixture');
    const address = `${unique('reader')}@customer-fixture.com`;
    const [id] = await inContext(() =>
      direct.enqueue(
        [
          {
            organizationId: org.user.organizationId,
            customerId: null,
            recipient: { type: 'email', address },
            event: 'report.ready',
            subject: 'Your November report',
            text: 'The report is attached.',
            html: '<p>The report is attached.</p>',
            headers: {
              'List-Unsubscribe': '<https://status.example/unsubscribe/abc>',
              'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            },
            attachments: [{ filename: 'report.pdf', path: join(folder, 'report.pdf'), contentType: 'application/pdf' }],
            dedupKey: unique('report'),
          },
        ],
        new Date(),
        poolTx(),
      ),
    );
    service.worker('direct-mail');

    const message = await waitFor(() => smtp.messages.find((m) => m.to.includes(address)), { what: 'the mail' });
    expect(message!.raw).to.match(/^Subject: Your November report$/m);
    expect(message!.raw).to.match(/^List-Unsubscribe: <https:\/\/status\.example\/unsubscribe\/abc>$/m);
    expect(message!.raw).to.match(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(message!.raw).to.match(new RegExp(`^X-Notification-Id: ${id}$`, 'mi'));
    expect(message!.raw).to.include('text/html');
    expect(message!.raw).to.include('filename=report.pdf');
    expect(message!.raw).to.include(Buffer.from('%PDF-1.4 fixture').toString('base64'));
    await waitFor(async () => (await rowOf(id!))?.status === 'delivered', { what: 'the delivery settled' });
    const row = await rowOf(id!);
    expect(row).to.include({ channel_type: 'email', event: 'report.ready', channel_public_id: null, outbox_id: null });
    expect(row!.recipient).to.deep.equal({ type: 'email', address });
  });

  it('posts a signed webhook, retried after two 500s with the same X-Webhook-Id, every attempt recorded', async () => {
    const org = await anOrganization('direct-hook');
    const path = `/${unique('subscriber')}`;
    receiver.answer(path, { status: 500 }, { status: 500 });
    const [id] = await inContext(() =>
      direct.enqueue(
        [
          {
            organizationId: org.user.organizationId,
            customerId: null,
            recipient: { type: 'webhook', url: receiver.url(path), secret: 'whsec_fixture' },
            event: 'statusPage.incidentUpdate',
            subject: 'Investigating',
            text: 'We are looking into it.',
            data: { page: 'acme' },
            dedupKey: unique('update'),
          },
        ],
        new Date(),
        poolTx(),
      ),
    );
    service.worker('direct-hook');

    await waitFor(async () => (await rowOf(id!))?.status === 'delivered', { what: 'the webhook delivered' });
    const requests = receiver.at(path);
    expect(requests).to.have.length(3);
    for (const request of requests) {
      expect(request.headers['x-webhook-id']).to.equal(id);
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers['x-webhook-signature']))!;
      expect(v1).to.equal(createHmac('sha256', 'whsec_fixture').update(`${t}.${request.body}`).digest('hex'));
    }
    expect(JSON.parse(requests[2]!.body)).to.include({
      id,
      event: 'statusPage.incidentUpdate',
      subject: 'Investigating',
      text: 'We are looking into it.',
    });
    expect((await attemptsOf(id!)).map((a) => [a.attempt, a.status_code, a.outcome])).to.deep.equal([
      [1, 500, 'retry'],
      [2, 500, 'retry'],
      [3, 200, 'delivered'],
    ]);
  });

  it('keeps one delivery per dedup key, whether repeated in one call or in the next', async () => {
    const org = await anOrganization('direct-dedup');
    const key = unique('once');
    const message: DirectMessage = {
      organizationId: org.user.organizationId,
      customerId: null,
      recipient: { type: 'email', address: 'once@customer-fixture.com' },
      event: 'subscriber.confirm',
      subject: 'Confirm',
      text: 'Confirm your subscription',
      dedupKey: key,
    };
    const first = await inContext(() => direct.enqueue([message, message], new Date(), poolTx()));
    const again = await inContext(() => direct.enqueue([message], new Date(), poolTx()));
    expect(first[0]).to.be.a('string').and.equal(first[1]);
    expect(again).to.deep.equal([first[0]]);
    const rows = await app.database.sql.query(
      sql`SELECT id FROM notification_deliveries WHERE organization_id = ${org.user.organizationId} AND dedup_key = ${key}`,
    );
    expect(rows).to.have.length(1);
  });

  it('writes nothing when the transaction that enqueued the message rolls back', async () => {
    const org = await anOrganization('direct-rollback');
    const key = unique('rolled-back');
    const failure = await inContext(() =>
      tx.run(async (t) => {
        await direct.enqueue(
          [
            {
              organizationId: org.user.organizationId,
              customerId: null,
              recipient: { type: 'email', address: 'never@customer-fixture.com' },
              event: 'subscriber.confirm',
              subject: 'Confirm',
              text: 'Confirm',
              dedupKey: key,
            },
          ],
          new Date(),
          t,
        );
        throw new Error('the change failed');
      }),
    ).catch((error: Error) => error);
    expect(failure).to.be.instanceOf(Error);
    const rows = await app.database.sql.query(sql`SELECT id FROM notification_deliveries WHERE dedup_key = ${key}`);
    expect(rows).to.have.length(0);
  });

  it('leaves direct deliveries out of the channel ledger view', async () => {
    const org = await anOrganization('direct-hidden');
    await inContext(() =>
      direct.enqueue(
        [
          {
            organizationId: org.user.organizationId,
            customerId: null,
            recipient: { type: 'email', address: 'hidden@customer-fixture.com' },
            event: 'subscriber.confirm',
            subject: 'Confirm',
            text: 'Confirm',
            dedupKey: unique('hidden'),
          },
        ],
        new Date(),
        poolTx(),
      ),
    );
    const listed = await api('GET', '/api/notification-deliveries', { token: org.token });
    expect(listed.status).to.equal(200);
    expect(listed.body).to.include({ total: 0 });
    expect(listed.body.items).to.deep.equal([]);
  });
});
