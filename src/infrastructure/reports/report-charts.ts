import type { ReportMonitor } from '../../domain/reports/report-model';
import { BAR_HEIGHT, COLORS, type Doc, LABEL_WIDTH, MARGIN, WIDTH, heading, percent, room } from './pdf-layout';

export function legend(doc: Doc, items: [string, string][]): void {
  let x = MARGIN;
  const y = doc.y;
  doc.font('Helvetica').fontSize(8);
  for (const [color, label] of items) {
    doc.rect(x, y + 1, 8, 8).fill(color);
    doc.fillColor(COLORS.muted).text(label, x + 11, y, { lineBreak: false });
    x += 11 + doc.widthOfString(label) + 14;
  }
  doc.y = y + 14;
}

export function uptimeChart(doc: Doc, monitors: readonly ReportMonitor[]): void {
  heading(doc, 'Uptime by monitor, share of the whole period');
  legend(doc, [
    [COLORS.up, 'up'],
    [COLORS.degraded, 'degraded'],
    [COLORS.down, 'down'],
    [COLORS.unknown, 'unknown'],
  ]);
  const barWidth = WIDTH - LABEL_WIDTH - 60;
  for (const monitor of monitors) {
    room(doc, BAR_HEIGHT + 6);
    const y = doc.y;
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor(COLORS.ink)
      .text(monitor.name, MARGIN, y + 1, { width: LABEL_WIDTH - 6, height: 10, ellipsis: true });
    const up = (monitor.uptimePercent ?? 0) - (monitor.degradedPercent ?? 0);
    const parts: [number, string][] =
      monitor.uptimePercent === null
        ? [[100, COLORS.unknown]]
        : [
            [up, COLORS.up],
            [monitor.degradedPercent ?? 0, COLORS.degraded],
            [monitor.downtimePercent ?? 0, COLORS.down],
            [monitor.unknownPercent ?? 0, COLORS.unknown],
          ];
    let x = MARGIN + LABEL_WIDTH;
    for (const [share, color] of parts) {
      const w = (share / 100) * barWidth;
      if (w > 0) doc.rect(x, y, w, BAR_HEIGHT).fill(color);
      x += w;
    }
    doc
      .rect(MARGIN + LABEL_WIDTH, y, barWidth, BAR_HEIGHT)
      .lineWidth(0.3)
      .strokeColor(COLORS.rule)
      .stroke();
    doc.fillColor(COLORS.ink).text(percent(monitor.uptimePercent), MARGIN + LABEL_WIDTH + barWidth + 6, y + 1, { lineBreak: false });
    doc.y = y + BAR_HEIGHT + 5;
  }
}

export function responseChart(doc: Doc, monitors: readonly ReportMonitor[]): void {
  heading(doc, 'Response time percentiles');
  const measured = monitors.filter((m) => m.responseTime.p99Ms !== null);
  if (measured.length === 0) {
    doc.font('Helvetica').fontSize(9).fillColor(COLORS.muted).text('No response times were recorded in the period.', MARGIN, doc.y);
    return;
  }
  legend(doc, [
    [COLORS.up, 'p50 to p99'],
    [COLORS.ink, 'p95'],
  ]);
  const scaleMax = Math.max(...measured.map((m) => m.responseTime.p99Ms!));
  const axisWidth = WIDTH - LABEL_WIDTH - 60;
  const xOf = (value: number) => MARGIN + LABEL_WIDTH + (value / scaleMax) * axisWidth;
  for (const monitor of measured) {
    room(doc, BAR_HEIGHT + 6);
    const y = doc.y;
    const { p50Ms, p95Ms, p99Ms } = monitor.responseTime;
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor(COLORS.ink)
      .text(monitor.name, MARGIN, y + 1, { width: LABEL_WIDTH - 6, height: 10, ellipsis: true });
    doc
      .moveTo(MARGIN + LABEL_WIDTH, y + BAR_HEIGHT / 2)
      .lineTo(MARGIN + LABEL_WIDTH + axisWidth, y + BAR_HEIGHT / 2)
      .lineWidth(0.3)
      .strokeColor(COLORS.rule)
      .stroke();
    doc.rect(xOf(p50Ms ?? 0), y + 2, Math.max(1, xOf(p99Ms!) - xOf(p50Ms ?? 0)), BAR_HEIGHT - 4).fill(COLORS.up);
    if (p95Ms !== null)
      doc
        .moveTo(xOf(p95Ms), y)
        .lineTo(xOf(p95Ms), y + BAR_HEIGHT)
        .lineWidth(1.2)
        .strokeColor(COLORS.ink)
        .stroke();
    doc.fillColor(COLORS.ink).text(`${p99Ms} ms`, MARGIN + LABEL_WIDTH + axisWidth + 6, y + 1, { lineBreak: false });
    doc.y = y + BAR_HEIGHT + 5;
  }
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor(COLORS.muted)
    .text(`Scale: 0 to ${scaleMax} ms`, MARGIN + LABEL_WIDTH, doc.y);
}
