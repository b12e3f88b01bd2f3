/** Page geometry, colours and text helpers the report's PDF is drawn with. */
export const MARGIN = 50;
export const PAGE = { width: 595.28, height: 841.89 };
export const WIDTH = PAGE.width - 2 * MARGIN;
export const COLORS = {
  up: '#2e9d57',
  degraded: '#e0b02f',
  down: '#d64541',
  unknown: '#b8bec6',
  ink: '#1f2933',
  muted: '#6b7785',
  rule: '#d9dee4',
};
export const LABEL_WIDTH = 170;
export const BAR_HEIGHT = 11;

export type Doc = PDFKit.PDFDocument;

export const percent = (value: number | null) => (value === null ? 'unknown' : `${value.toFixed(2)} %`);
export const ms = (value: number | null) => (value === null ? '-' : `${value} ms`);

export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

/** Keeps a block together: a new page when fewer than `height` points are left. */
export function room(doc: Doc, height: number): void {
  if (doc.y + height > PAGE.height - MARGIN) doc.addPage();
}

export function heading(doc: Doc, text: string): void {
  room(doc, 60);
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).fillColor(COLORS.ink).text(text, MARGIN, doc.y, { width: WIDTH });
  doc
    .moveTo(MARGIN, doc.y + 2)
    .lineTo(MARGIN + WIDTH, doc.y + 2)
    .lineWidth(0.5)
    .strokeColor(COLORS.rule)
    .stroke();
  doc.moveDown(0.6);
}
