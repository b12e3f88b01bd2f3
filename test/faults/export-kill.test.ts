import { expect } from 'chai';
import fs from 'node:fs/promises';
import path from 'node:path';
import { aMailingRig, mustCall, signUpAt, type FaultRig } from '../support/fault-rig';
import type { SmtpPeer } from '../support/peers/smtp-peer';
import { waitFor } from '../support/wait-for';

const MAIL_HOST = 'mail.export-kill-fixture.com';
/** Enough check results that generating the archive takes a while: several pages of 2,000 rows. */
const RESULTS = 40_000;

/**
 * SIGKILL during an export: an organization with 40,000 check results asks for its export; the
 * process is killed mid-generation (some pages written, the archive incomplete). After a restart
 * the export does not stay generating: once its lease (EXPORT_LEASE_SECONDS) has lapsed it is
 * generated again, and ends with one archive (no partial file left) and one e-mailed link.
 */
describe('SIGKILL during an export', function () {
  this.timeout(240_000);
  let rig: FaultRig;
  let smtp: SmtpPeer;
  let close: () => Promise<void>;

  before(async () => {
    ({ rig, smtp, close } = await aMailingRig('export', MAIL_HOST, { EXPORT_LEASE_SECONDS: '5' }));
  });
  after(() => close?.());

  it('is generated again after the restart: ready, one archive, one link e-mailed', async () => {
    const first = await rig.start('first');
    const admin = await signUpAt(first.url, 'export');
    const { customer } = await mustCall(first.url, 'POST', '/api/customers', 200, {
      token: admin.token,
      body: { name: 'Export customer', email: 'export-customer@test.example' },
    });
    const site = await mustCall(first.url, 'POST', '/api/websites', 201, {
      token: admin.token,
      body: { customerId: customer.id, url: 'http://127.0.0.1:9/', status: 'paused' },
    });
    await rig.sql(`INSERT INTO check_locations (code) VALUES ('local') ON CONFLICT (code) DO NOTHING`);
    // Within the partitions made at migration (yesterday to three days ahead).
    await rig.sql(
      `INSERT INTO check_results (monitor_id, checked_at, location_id, status, response_ms)
       SELECT $1, date_trunc('day', now()) + i * interval '100 ms', (SELECT id FROM check_locations WHERE code = 'local'), 1, 100 + i % 50
       FROM generate_series(1, $2) AS i`,
      [site.id, RESULTS],
    );

    const requested = await mustCall(first.url, 'POST', '/api/organization/data-export', 202, { token: admin.token, body: {} });
    const exportId = requested.id as string;
    const state = async () =>
      (
        await rig.sql<{
          status: string;
          rows_done: string;
          rows_total: string | null;
          attempts: number;
          file_path: string | null;
          file_bytes: string | null;
        }>(`SELECT status, rows_done, rows_total, attempts, file_path, file_bytes FROM data_exports WHERE id = $1`, [exportId])
      )[0]!;
    await waitFor(
      async () => {
        const e = await state();
        return e.status === 'generating' && Number(e.rows_done) > 0;
      },
      { timeoutMs: 90_000, everyMs: 10, what: 'the export generating, a page of results written' },
    );
    await rig.kill(first);
    const killed = await state();
    expect(killed.status, 'killed mid-generation').to.equal('generating');
    expect(Number(killed.rows_done)).to.be.below(Number(killed.rows_total));

    const second = await rig.start('second');
    const done = await waitFor(
      async () => {
        const e = await state();
        return e.status === 'ready' || e.status === 'failed' ? e : null;
      },
      { timeoutMs: 120_000, everyMs: 200, what: 'the export no longer queued or generating' },
    );
    expect(done!.status, 'generated again').to.equal('ready');
    expect(done!.attempts, 'the killed try counts').to.equal(2);
    expect(Number(done!.rows_done)).to.equal(Number(done!.rows_total));

    const files = await fs.readdir(path.join(rig.dataDir, 'exports'));
    expect(files, 'one archive, no partial one left').to.deep.equal([`${exportId}.zip`]);
    expect((await fs.stat(path.join(rig.dataDir, 'exports', files[0]!))).size).to.equal(Number(done!.file_bytes));

    await waitFor(() => smtp.messages.length >= 1, { timeoutMs: 20_000, what: 'the link e-mailed' });
    const links = await rig.sql(`SELECT status FROM notification_deliveries WHERE dedup_key LIKE $1`, [`data-export:${exportId}:%`]);
    expect(links, 'one link delivery').to.have.length(1);
    expect(smtp.messages).to.have.length(1);
    expect(smtp.messages[0]!.to).to.deep.equal([admin.email]);
    const listed = await mustCall(second.url, 'GET', '/api/organization/data-export', 200, { token: admin.token });
    expect(listed.items.map((e: { id: string; status: string }) => [e.id, e.status])).to.deep.equal([[exportId, 'ready']]);
  });
});
