import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { aCustomer } from '../../../support/callers';
import { apiAt } from '../../../support/http-client';
import { ManualClock } from '../../../support/manual-clock';
import { testCertificates } from '../../../support/peers/certificates';
import { SmtpPeer } from '../../../support/peers/smtp-peer';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { aMonitorRow } from '../../../support/results-fixtures';
import { aWeekOfResults, pdfText } from '../../../support/reports-fixtures';
import { testServer } from '../../../support/test-server';
import { waitFor } from '../../../support/wait-for';
import { RunDueReports } from '../../../../src/application/reports/run-due-reports';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const MAIL_HOST = 'mail.reports-fixture.com';
const DAY = 86_400_000;

/** The PDF attached to a raw MIME message (base64 part after its Content-Type). */
function attachedPdf(raw: string): Uint8Array {
  const part = /Content-Type: application\/pdf[^\r\n]*(?:\r?\n[^\r\n]+)*\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(raw);
  if (!part) throw new Error('no PDF attached');
  return new Uint8Array(Buffer.from(part[1]!.replace(/\s+/g, ''), 'base64'));
}

/**
 * Reports leave by e-mail through the delivery ledger: the run puts one message per recipient into
 * the ledger in its transaction, and the notification worker mails it with the archived PDF attached
 * (read from DATA_DIR at send time) to a loopback SMTP server.
 */
describe('report delivery (loopback SMTP)', () => {
  const smtp = new SmtpPeer(testCertificates().selfSigned, { starttls: false });
  const clock = new ManualClock(new Date());
  let service: DeliveryService;

  before(async () => {
    await smtp.start();
    service = await aDeliveryService(
      [MAIL_HOST],
      { SMTP_URL: `smtp://user:secret@${MAIL_HOST}:${smtp.port}`, SMTP_FROM: 'reports@platform.example' },
      { clock },
    );
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await smtp.stop();
  });

  it('mails the PDF of a run to each recipient of the report', async function () {
    this.timeout(60_000);
    const org = await anOrganization('mailing');
    const customer = await aCustomer(org.token, { name: 'Acme Shop GmbH' });
    const monitor = await aMonitorRow(org.user.organizationId, customer.id, {
      name: 'Checkout API',
      checkIntervalSeconds: 300,
      locations: ['eu'],
    });
    const midnight = new Date(Math.floor(clock.now().getTime() / DAY) * DAY);
    await aWeekOfResults(
      await testServer(),
      monitor,
      { from: new Date(midnight.getTime() - 7 * DAY), to: midnight },
      { at: 700, count: 12 },
    );
    const readers = [`cfo-${Date.now()}@agency-fixture.com`, `ops-${Date.now()}@agency-fixture.com`];
    const created = await apiAt(service.app.url, 'POST', '/api/organization/reports', {
      token: org.token,
      body: {
        name: 'Weekly SLA',
        frequency: 'weekly',
        weekday: ((midnight.getUTCDay() + 6) % 7) + 1,
        timeOfDay: '00:00',
        recipients: readers,
      },
    });
    const run = await apiAt(service.app.url, 'POST', `/api/organization/reports/${created.body.id}/run`, { token: org.token });
    expect(run.body).to.include({ status: 'completed', hasPdf: true });
    expect(run.body.recipients).to.deep.equal(readers);
    service.worker('report-mail');

    for (const reader of readers) {
      const mail = await waitFor(() => smtp.messages.find((m) => m.to.includes(reader)), { what: `the mail to ${reader}` });
      expect(mail!.raw).to.match(/^Subject: Weekly SLA: \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}$/m);
      expect(mail!.raw).to.match(/filename=report-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.pdf/);
      expect(pdfText(attachedPdf(mail!.raw))).to.match(/Checkout API\s+Acme Shop GmbH\s+99\.40 %/);
    }
    const deliveries = await service.app.database.sql.query<{ event: string; status: string }>(
      sql`SELECT event, status FROM notification_deliveries WHERE organization_id = ${org.user.organizationId} AND recipient->>'type' = 'email'`,
    );
    expect(deliveries).to.have.length(2);
    expect(deliveries.every((d) => d.event === 'report.ready')).to.equal(true);
  });

  it('sends a customer with monthlyReportsEnabled its own monthly report, of its monitors only, once', async function () {
    this.timeout(60_000);
    const org = await anOrganization('monthly');
    const address = `reports-${Date.now()}@customer-fixture.com`;
    const subscribed = await aCustomer(org.token, { name: 'Subscribed Customer', monthlyReportsEnabled: true, notificationEmail: address });
    const other = await aCustomer(org.token, { name: 'Other Customer' });
    const own = await aMonitorRow(org.user.organizationId, subscribed.id, {
      name: 'Own Shop',
      checkIntervalSeconds: 300,
      locations: ['eu'],
    });
    await aMonitorRow(org.user.organizationId, other.id, { name: 'Someone Else', checkIntervalSeconds: 300, locations: ['eu'] });
    const now = clock.now();
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    await aWeekOfResults(
      await testServer(),
      own,
      { from: monthStart, to: new Date(monthStart.getTime() + 7 * DAY) },
      { at: 100, count: 12 },
    );
    // The 1st of next month, after the customers' reports time (06:00 UTC).
    clock.set(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 7)));
    const due = () => service.app.container.get(RunDueReports).execute();
    await due();
    await due();
    const runs = await service.app.database.sql.query<{ status: string; period_from: Date; slot: Date }>(
      sql`SELECT status, period_from, slot FROM report_runs WHERE customer_id = ${subscribed.id}`,
    );
    expect(runs).to.have.length(1);
    expect(runs[0]!.status).to.equal('completed');
    expect(new Date(runs[0]!.period_from).toISOString()).to.equal(monthStart.toISOString());
    expect(await service.app.database.sql.query(sql`SELECT 1 FROM report_runs WHERE customer_id = ${other.id}`)).to.have.length(0);

    service.worker('monthly-mail');
    const mail = await waitFor(() => smtp.messages.find((m) => m.to.includes(address)), { what: "the customer's monthly report" });
    expect(mail!.raw).to.match(/^Subject: Monthly report: Subscribed Customer: /m);
    const text = pdfText(attachedPdf(mail!.raw));
    const row = /Own Shop\s+Subscribed\S*\s+99\.40 %\s+1 h 0 min\s+(\d+\.\d{2}) %/.exec(text);
    expect(row, text).to.not.equal(null);
    // A week observed of the whole month: the rest is unknown, not up.
    const days = (clock.now().getTime() - monthStart.getTime() - 7 * 3_600_000) / DAY;
    expect(Number(row![1])).to.be.closeTo(100 * (1 - 7 / Math.round(days)), 0.011);
    expect(text).not.to.include('Someone Else');
  });
});
