import { expect } from 'chai';
import { watch } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { aMailingRig, mustCall, signUpAt, type FaultRig } from '../support/fault-rig';
import type { SmtpPeer } from '../support/peers/smtp-peer';
import { stopService } from '../support/service-process';
import { waitFor } from '../support/wait-for';

const MAIL_HOST = 'mail.report-kill-fixture.com';
const MONITORS = 40;

/**
 * SIGKILL during a report run: a weekly report whose slot has come, made by the reports job of a
 * process that is killed the moment it starts writing the run's PDF (the run's row, its PDF and
 * its e-mails are one transaction, not yet committed). After a restart the slot yields exactly one
 * run, one PDF in the archive and one e-mail per recipient.
 */
describe('SIGKILL during a report run', function () {
  this.timeout(240_000);
  let rig: FaultRig;
  let smtp: SmtpPeer;
  let close: () => Promise<void>;

  before(async () => {
    ({ rig, smtp, close } = await aMailingRig('report', MAIL_HOST));
  });
  after(() => close?.());

  it('makes the slot once after the restart: one run, one PDF, one e-mail per recipient', async () => {
    // Set up on a process stopped gracefully afterwards (its job system lets go of its locks).
    const setup = await rig.start('setup');
    const admin = await signUpAt(setup.url, 'report');
    const { customer } = await mustCall(setup.url, 'POST', '/api/customers', 200, {
      token: admin.token,
      body: { name: 'Report customer', email: 'report-customer@test.example' },
    });
    for (let i = 0; i < MONITORS; i++) {
      await mustCall(setup.url, 'POST', '/api/websites', 201, {
        token: admin.token,
        body: { customerId: customer.id, url: `http://127.0.0.1:9/${i}`, status: 'paused' },
      });
    }
    // A weekly slot two minutes ago; the definition dated a day back, so that slot is its to make.
    const slot = new Date(Math.floor((Date.now() - 120_000) / 60_000) * 60_000);
    const recipients = [admin.email, 'ops@report-kill-fixture.com'];
    const report = await mustCall(setup.url, 'POST', '/api/organization/reports', 201, {
      token: admin.token,
      body: {
        name: 'Weekly uptime',
        frequency: 'weekly',
        weekday: slot.getUTCDay() === 0 ? 7 : slot.getUTCDay(),
        dayOfMonth: null,
        timeOfDay: slot.toISOString().slice(11, 16),
        timezone: 'UTC',
        scope: { customers: [customer.id], monitors: [], tags: [] },
        recipients,
      },
    });
    await rig.sql(`UPDATE report_definitions SET created_at = now() - interval '1 day' WHERE public_id = $1`, [report.id]);
    await stopService(setup.service);
    await rig.sql(`UPDATE agenda_jobs SET next_run_at = now() WHERE name = 'reports:run-due'`);

    // The next process runs the reports job as it starts; it dies as the run's PDF is being written.
    const archive = path.join(rig.dataDir, 'reports', String(admin.organizationId));
    await fs.mkdir(archive, { recursive: true });
    const runs = () =>
      rig.sql<{ status: string; pdf_path: string | null; recipients: string[] }>(
        `SELECT r.status, r.pdf_path, r.recipients FROM report_runs r JOIN report_definitions d ON d.id = r.report_id
       WHERE d.public_id = $1 AND r.slot = $2`,
        [report.id, slot],
      );
    let killing: Promise<void> | undefined;
    const doomed = rig.spawn();
    // Watched in the same tick as the spawn: the child cannot have written its PDF yet.
    const watcher = watch(archive, () => {
      if (!killing) killing = rig.kill(doomed);
    });
    await waitFor(() => killing !== undefined, { timeoutMs: 90_000, everyMs: 5, what: 'the run writing its PDF' });
    await killing;
    watcher.close();
    expect(await runs(), 'killed before the run committed').to.deep.equal([]);

    await rig.start('restarted');
    const [made] = (await waitFor(
      async () => {
        const rows = await runs();
        return rows.length > 0 ? rows : null;
      },
      { timeoutMs: 90_000, everyMs: 200, what: 'the slot made after the restart' },
    ))!;
    expect(made!.status).to.equal('completed');
    expect(made!.recipients).to.deep.equal(recipients);
    await waitFor(() => smtp.messages.length >= recipients.length, { timeoutMs: 30_000, what: 'the e-mails' });
    const deliveries = await rig.sql(`SELECT dedup_key FROM notification_deliveries WHERE dedup_key LIKE 'report-run:%'`);
    expect(deliveries, 'one e-mail per recipient in the ledger').to.have.length(recipients.length);
    for (const to of recipients)
      expect(
        smtp.messages.filter((m) => m.to.includes(to)),
        `e-mails to ${to}`,
      ).to.have.length(1);
    expect(await fs.readdir(archive), 'one PDF for the slot, nothing half-written left').to.deep.equal([path.basename(made!.pdf_path!)]);
  });
});
