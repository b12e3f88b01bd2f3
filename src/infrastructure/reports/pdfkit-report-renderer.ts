import type { ReportModel, ReportMonitor, ReportObjective } from '../../domain/reports/report-model';
import { localDate } from '../../domain/shared/zoned-time';
import type { ReportRenderer } from '../../application/reports/ports';
import { COLORS, type Doc, MARGIN, PAGE, WIDTH, duration, heading, ms, percent, room } from './pdf-layout';
import { responseChart, uptimeChart } from './report-charts';

/**
 * The PDF with pdfkit: text in the standard Helvetica faces (no font files to ship), charts drawn as
 * vector paths (one stacked bar per monitor for up, degraded, down and unknown time; a range bar from
 * p50 to p99 with a p95 tick for response times), the organization's logo and name on the first page.
 * pdfkit (and its fonts) is loaded with the first report, not at start: about 5 MB of heap a service
 * that sends no reports never holds.
 */
export class PdfkitReportRenderer implements ReportRenderer {
  async render(model: ReportModel, branding: { logo: Uint8Array | null }): Promise<Uint8Array> {
    const { default: PDFDocument } = await import('pdfkit');
    const doc = new PDFDocument({
      size: 'A4',
      margin: MARGIN,
      bufferPages: true,
      info: { Title: `${model.title} - ${model.organizationName}`, Author: model.organizationName, Subject: 'Uptime and SLA report' },
    });
    const chunks: Buffer[] = [];
    const done = new Promise<Uint8Array>((resolve, reject) => {
      doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
      doc.on('error', reject);
    });
    this.header(doc, model, branding.logo);
    this.summary(doc, model);
    uptimeChart(doc, model.monitors);
    responseChart(doc, model.monitors);
    this.table(doc, model);
    this.objectives(doc, model);
    this.incidents(doc, model);
    this.footers(doc, model);
    doc.end();
    return done;
  }

  private header(doc: Doc, model: ReportModel, logo: Uint8Array | null): void {
    let textX = MARGIN;
    if (logo) {
      try {
        doc.image(Buffer.from(logo), MARGIN, MARGIN, { fit: [110, 50] });
        textX = MARGIN + 125;
      } catch {
        // An unreadable logo must not cost the report: the name alone brands it.
      }
    }
    doc
      .font('Helvetica-Bold')
      .fontSize(18)
      .fillColor(COLORS.ink)
      .text(model.organizationName, textX, MARGIN, { width: WIDTH - (textX - MARGIN) });
    doc
      .font('Helvetica')
      .fontSize(13)
      .text(model.title, textX, doc.y, { width: WIDTH - (textX - MARGIN) });
    const until = new Date(model.period.to.getTime() - 1);
    doc
      .fontSize(10)
      .fillColor(COLORS.muted)
      .text(
        `Period: ${localDate(model.timezone, model.period.from)} to ${localDate(model.timezone, until)} (${model.timezone})`,
        textX,
        doc.y,
      );
    doc.y = Math.max(doc.y, MARGIN + 55);
    doc
      .moveTo(MARGIN, doc.y + 4)
      .lineTo(MARGIN + WIDTH, doc.y + 4)
      .lineWidth(1)
      .strokeColor(COLORS.ink)
      .stroke();
    doc.moveDown(1);
  }

  private summary(doc: Doc, model: ReportModel): void {
    heading(doc, 'Summary');
    const s = model.summary;
    const rows: [string, string][] = [
      ['Monitors', String(s.monitors)],
      ['Uptime (observed time)', percent(s.uptimeOfKnownPercent)],
      ['Unknown (not observed)', percent(s.unknownPercent)],
      ['Downtime', duration(s.downtimeSeconds)],
      ['Incidents', String(s.incidents)],
      [`SLA target ${model.slaTarget} %`, `${s.slaMet} met, ${s.slaMissed} missed, ${s.slaUnknown} unknown`],
    ];
    doc.fontSize(10);
    for (const [label, value] of rows) {
      const y = doc.y;
      doc.font('Helvetica').fillColor(COLORS.muted).text(label, MARGIN, y, { width: 200 });
      doc
        .font('Helvetica-Bold')
        .fillColor(COLORS.ink)
        .text(value, MARGIN + 210, y, { width: WIDTH - 210 });
      doc.moveDown(0.2);
    }
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor(COLORS.muted)
      .moveDown(0.4)
      .text(
        'Uptime and the SLA are judged on the time the monitors were observed; time without results is shown as unknown, ' +
          'never as up. Maintenance marked to be excluded from uptime is left out.',
        MARGIN,
        doc.y,
        { width: WIDTH },
      );
  }

  private table(doc: Doc, model: ReportModel): void {
    heading(doc, 'Monitors');
    const columns: Column<ReportMonitor>[] = [
      ['Monitor', 120, (m) => m.name],
      ['Customer', 80, (m) => m.customerName],
      ['Uptime', 52, (m) => percent(m.uptimeOfKnownPercent)],
      ['Down', 52, (m) => duration(m.downtimeSeconds)],
      ['Unknown', 45, (m) => percent(m.unknownPercent)],
      ['p50', 36, (m) => ms(m.responseTime.p50Ms)],
      ['p95', 36, (m) => ms(m.responseTime.p95Ms)],
      ['p99', 36, (m) => ms(m.responseTime.p99Ms)],
      ['SLA', 38, (m) => m.sla],
    ];
    const row = tableRows(doc, columns);
    for (const monitor of model.monitors) row(monitor);
  }

  /** Each objective over the period (attainment to three decimals: 99.95 and 99.9 differ), then the incidents that spent its budget. */
  private objectives(doc: Doc, model: ReportModel): void {
    if (model.objectives.length === 0) return;
    heading(doc, 'Service level objectives');
    const thousandths = (value: number | null) => (value === null ? 'unknown' : `${value.toFixed(3)} %`);
    const columns: Column<ReportObjective>[] = [
      ['Objective', 140, (o) => o.name],
      ['Target', 50, (o) => `${o.target} %`],
      ['Attainment', 62, (o) => thousandths(o.attainmentPercent)],
      ['Budget left', 95, (o) => `${o.budgetLeftMinutes.toFixed(1)} min (${percent(o.budgetLeftPercent)})`],
      ['Spent', 50, (o) => `${o.spentMinutes.toFixed(1)} min`],
      ['Unknown', 50, (o) => percent(o.unknownPercent)],
      ['Verdict', 45, (o) => (o.met === null ? 'unknown' : o.met ? 'met' : 'missed')],
    ];
    const row = tableRows(doc, columns);
    for (const objective of model.objectives) {
      row(objective);
      for (const incident of objective.incidents.slice(0, 5))
        doc
          .font('Helvetica')
          .fontSize(7)
          .fillColor(COLORS.muted)
          .text(`Spent by ${incident.monitorName}: ${incident.title}, ${duration(incident.durationSeconds)}`, MARGIN + 10, doc.y, {
            width: WIDTH - 10,
          });
    }
  }

  private incidents(doc: Doc, model: ReportModel): void {
    heading(doc, 'Incidents and their causes');
    const affected = model.monitors.filter((m) => m.incidents.length > 0);
    if (affected.length === 0) {
      doc.font('Helvetica').fontSize(9).fillColor(COLORS.muted).text('No incidents in the period.', MARGIN, doc.y);
      return;
    }
    const at = (d: Date) =>
      `${localDate(model.timezone, d)} ${d.toLocaleTimeString('en-GB', { timeZone: model.timezone, hour: '2-digit', minute: '2-digit' })}`;
    for (const monitor of affected) {
      room(doc, 40);
      doc.font('Helvetica-Bold').fontSize(9).fillColor(COLORS.ink).text(`${monitor.name} (${monitor.customerName})`, MARGIN, doc.y);
      for (const incident of monitor.incidents) {
        room(doc, 24);
        const ended = incident.resolvedAt ? at(incident.resolvedAt) : 'still open';
        doc
          .font('Helvetica')
          .fontSize(8)
          .fillColor(COLORS.ink)
          .text(
            `${at(incident.startedAt)} to ${ended}, ${duration(incident.durationSeconds)} in the period: ${incident.title}`,
            MARGIN + 10,
            doc.y,
            { width: WIDTH - 10 },
          );
        doc.fillColor(COLORS.muted).text(`Cause: ${incident.cause}`, MARGIN + 10, doc.y, { width: WIDTH - 10 });
      }
      doc.moveDown(0.4);
    }
  }

  private footers(doc: Doc, model: ReportModel): void {
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i += 1) {
      doc.switchToPage(i);
      // The footer sits in the bottom margin: without this pdfkit would break to a new page for it.
      const bottom = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      doc
        .font('Helvetica')
        .fontSize(7)
        .fillColor(COLORS.muted)
        .text(
          `${model.organizationName} - ${model.title} - generated ${model.generatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC - page ${i + 1} of ${range.count}`,
          MARGIN,
          PAGE.height - MARGIN + 15,
          { width: WIDTH, align: 'center', lineBreak: false },
        );
      doc.page.margins.bottom = bottom;
    }
  }
}

/** A column of a table: its title, its width in points, and its cell for a row's item. */
type Column<T> = [title: string, width: number, cell: (item: T) => string];

/** Draws a table's header row at once, and answers the function that draws one item's row (a new page when needed). */
function tableRows<T>(doc: Doc, columns: readonly Column<T>[]): (item: T) => void {
  const row = (cells: string[], bold: boolean) => {
    room(doc, 14);
    const y = doc.y;
    let x = MARGIN;
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(8)
      .fillColor(COLORS.ink);
    cells.forEach((cell, i) => {
      doc.text(cell, x, y, { width: columns[i]![1] - 4, height: 10, ellipsis: true });
      x += columns[i]![1];
    });
    doc.y = y + 13;
  };
  row(
    columns.map(([title]) => title),
    true,
  );
  return (item) =>
    row(
      columns.map(([, , cell]) => cell(item)),
      false,
    );
}
