import { aReportsWorld, REPORT_LOOKBACK_MS } from '../../../support/builders/reports';
import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';
import { aMonitorRef } from '../../../support/fakes/results-fakes';

describe('report runs', () => {
  it('makes the latest slot once, mails the PDF to each recipient by file path, and not again on the next pass', async () => {
    const s = aReportsWorld();
    s.clock.set('2026-05-20T00:00:00Z');
    await s.create.execute(anActor().build(), s.input());
    s.clock.set('2026-06-01T12:00:00Z');
    expect(await s.due.execute()).to.deep.equal({ made: 1 });
    expect(await s.due.execute()).to.deep.equal({ made: 0 });
    const [run] = s.runs.runs;
    expect(run).to.deep.include({
      trigger: 'schedule',
      slot: new Date('2026-06-01T08:00:00Z'),
      status: 'completed',
      recipients: ['cfo@agency.example', 'ops@agency.example'],
      period: { from: new Date('2026-05-25T00:00:00Z'), to: new Date('2026-06-01T00:00:00Z') },
    });
    expect(run!.summary).to.include({ monitors: 1, uptimeOfKnownPercent: 90, lowestUptime: 90, slaMissed: 1 });
    expect(s.deliveries.rows.map((r) => r.message.recipient)).to.deep.equal([
      { type: 'email', address: 'cfo@agency.example' },
      { type: 'email', address: 'ops@agency.example' },
    ]);
    const message = s.deliveries.rows[0]!.message;
    expect(message).to.deep.include({
      event: 'report.ready',
      subject: 'Weekly SLA: 2026-05-25 to 2026-05-31',
      organizationId: 1,
      customerId: null,
    });
    expect(message.attachments).to.deep.equal([
      { filename: 'report-2026-05-25-to-2026-05-31.pdf', path: run!.pdfPath, contentType: 'application/pdf' },
    ]);
    expect(new TextDecoder().decode(s.archive.files.get(run!.pdfPath!))).to.equal('%PDF Weekly SLA: Shop');
  });

  it("names a scheduled slot's PDF by report and slot: a slot made again after a worker died midway replaces the dead attempt's file", async () => {
    const s = aReportsWorld();
    s.clock.set('2026-05-20T00:00:00Z');
    await s.create.execute(anActor().build(), s.input());
    s.clock.set('2026-06-01T12:00:00Z');
    await s.due.execute();
    const dead = s.runs.runs[0]!.pdfPath;
    // The worker died before its transaction committed: the row and the mails are gone, the file stays.
    s.runs.runs.length = 0;
    s.deliveries.rows.length = 0;
    expect(await s.due.execute()).to.deep.equal({ made: 1 });
    expect(s.runs.runs[0]!.pdfPath).to.equal(dead);
    expect([...s.archive.files.keys()], 'one PDF for the slot').to.deep.equal([dead]);
  });

  it('does not make a slot that came before the report existed, or one older than the lookback', async () => {
    const s = aReportsWorld();
    s.clock.set('2026-06-01T09:00:00Z');
    await s.create.execute(anActor().build(), s.input());
    expect(await s.due.execute()).to.deep.equal({ made: 0 });
    s.clock.set('2026-06-08T08:00:00Z');
    s.clock.advance(REPORT_LOOKBACK_MS + 1);
    expect(await s.due.execute()).to.deep.equal({ made: 0 });
    expect(s.runs.runs).to.have.length(0);
  });

  it('skips a threshold report when every monitor stayed at or above the threshold: no PDF, no mail', async () => {
    const s = aReportsWorld();
    const view = await s.create.execute(anActor().build(), s.input({ mode: 'threshold', threshold: 80 }));
    const run = await s.now.execute(anActor().build(), { id: view.report.publicId });
    expect(run).to.include({ status: 'skipped', pdfPath: null, trigger: 'manual', slot: null });
    expect(s.deliveries.rows).to.have.length(0);
    expect(await codeOf(s.pdf.execute(anActor().build(), { id: run.publicId }))).to.equal('reportRunNoPdf');
    await s.update.execute(anActor().build(), { id: view.report.publicId, change: { threshold: 95 } });
    const below = await s.now.execute(anActor().build(), { id: view.report.publicId });
    expect(below).to.include({ status: 'completed' });
    expect((await s.pdf.execute(anActor().build(), { id: below.publicId })).pdf).to.have.length.greaterThan(0);
  });

  it('records a failed run with its reason when the PDF cannot be made, and mails nothing', async () => {
    const s = aReportsWorld();
    s.renderer.failWith = new Error('font missing');
    const view = await s.create.execute(anActor().build(), s.input());
    const run = await s.now.execute(anActor().build(), { id: view.report.publicId });
    expect(run).to.include({ status: 'failed', error: 'font missing', pdfPath: null });
    expect(s.deliveries.rows).to.have.length(0);
  });

  it('answers reportPdfNotFound when the recorded file cannot be read', async () => {
    const s = aReportsWorld();
    const view = await s.create.execute(anActor().build(), s.input());
    const run = await s.now.execute(anActor().build(), { id: view.report.publicId });
    s.archive.files.clear();
    expect(await codeOf(s.pdf.execute(anActor().build(), { id: run.publicId }))).to.equal('reportPdfNotFound');
    expect(await codeOf(s.pdf.execute(anActor().build(), { id: 'missing' }))).to.equal('reportRunNotFound');
  });

  it('sends customers with monthly reports their own monitors on the 1st, to their address, once', async () => {
    const s = aReportsWorld();
    s.sources.reportedMonitors.push({ ...aMonitorRef({ monitorId: 8, customerId: 3, name: 'Other' }), customerName: 'Other Co' });
    s.sources.customers = [{ organizationId: 1, customerId: 2, name: 'Acme', email: 'reports@acme.example' }];
    s.clock.set('2026-06-01T05:59:00Z');
    expect(await s.due.execute()).to.deep.equal({ made: 0 });
    s.clock.set('2026-06-01T06:00:00Z');
    expect(await s.due.execute()).to.deep.equal({ made: 1 });
    expect(await s.due.execute()).to.deep.equal({ made: 0 });
    expect(s.runs.runs[0]).to.deep.include({
      customerId: 2,
      reportId: null,
      period: { from: new Date('2026-05-01T00:00:00Z'), to: new Date('2026-06-01T00:00:00Z') },
    });
    expect(s.renderer.rendered[0]!.monitors.map((m) => m.name)).to.deep.equal(['Shop']);
    expect(s.deliveries.rows.map((r) => [r.message.recipient, r.message.customerId])).to.deep.equal([
      [{ type: 'email', address: 'reports@acme.example' }, 2],
    ]);
  });
});

describe('report definitions', () => {
  it('refuses scope ids the organization does not own, listing them (invalidReportScope)', async () => {
    const s = aReportsWorld();
    const error = await s.create
      .execute(anActor().build(), s.input({ scope: { customers: ['customer-2', 'customer-99'], monitors: [], tags: ['tag-1'] } }))
      .then(
        () => null,
        (e: unknown) => e as { code: string; details: Record<string, unknown> },
      );
    expect(error).to.deep.include({
      code: 'invalidReportScope',
      details: { unknown: { customers: ['customer-99'], monitors: [], tags: ['tag-1'] } },
    });
    const ok = await s.create.execute(anActor().build(), s.input({ scope: { customers: ['2'], monitors: ['monitor-7'], tags: [] } }));
    expect(ok.scope).to.deep.equal({ customers: ['customer-2'], monitors: ['monitor-7'], tags: [] });
  });

  it('lets editors and admins write; read-only members get roleForbidden', async () => {
    const s = aReportsWorld();
    expect(await codeOf(s.create.execute(anActor().withRole('readonly').build(), s.input()))).to.equal('roleForbidden');
    expect(await codeOf(s.create.execute(anActor().withRole('editor').build(), s.input()))).to.equal(undefined);
  });

  it("switching frequency needs the new frequency's field (invalidReportSchedule), and then drops the old one", async () => {
    const s = aReportsWorld();
    const view = await s.create.execute(anActor().build(), s.input());
    const id = view.report.publicId;
    expect(await codeOf(s.update.execute(anActor().build(), { id, change: { frequency: 'monthly' } }))).to.equal('invalidReportSchedule');
    const monthly = await s.update.execute(anActor().build(), { id, change: { frequency: 'monthly', dayOfMonth: 28 } });
    expect(monthly.report.schedule).to.deep.include({ frequency: 'monthly', dayOfMonth: 28, weekday: null });
    expect(monthly.nextRunAt?.toISOString()).to.equal('2026-06-28T08:00:00.000Z');
    expect(await codeOf(s.update.execute(anActor().build(), { id: 'nope', change: {} }))).to.equal('reportNotFound');
  });
});
