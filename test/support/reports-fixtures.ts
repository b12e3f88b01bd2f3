import { TRANSACTION_RUNNER, type TransactionRunner } from '../../src/application/shared/transaction';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import {
  RESULT_MAINTENANCE,
  RESULT_STORE,
  type ResultMaintenance,
  type ResultStore,
  type StoredResult,
} from '../../src/application/results/ports';
import type { RunningApplication } from '../../src/main/application';
import { aResult, record, type MonitorRow } from './results-fixtures';

const FIVE_MINUTES = 300_000;

/**
 * Results every 5 minutes from `from` to `to` at one location, up except `downCount` results from
 * index `downAt` on. The down ones and the up result after them go through the alert rules (so an
 * automatic incident opens with its cause and resolves); the rest are appended in one statement.
 */
export async function aWeekOfResults(
  app: RunningApplication,
  monitor: MonitorRow,
  period: { from: Date; to: Date },
  down: { at: number; count: number },
  location = 'eu',
): Promise<void> {
  const count = Math.round((period.to.getTime() - period.from.getTime()) / FIVE_MINUTES);
  const at = (k: number) => new Date(period.from.getTime() + k * FIVE_MINUTES);
  const throughRules = (k: number) => k >= down.at && k <= down.at + down.count;
  const plain: StoredResult[] = [];
  for (let k = 0; k < count; k += 1) {
    if (throughRules(k)) continue;
    plain.push({
      monitorId: monitor.id,
      location,
      status: 'up',
      responseTimeMs: 80 + (k % 5) * 10,
      reasonCode: null,
      detail: null,
      checkedAt: at(k),
    });
  }
  await app.container
    .get<TransactionRunner>(TRANSACTION_RUNNER)
    .run((tx) => app.container.get<ResultStore>(RESULT_STORE).appendMany(plain, tx));
  for (let k = down.at; k < down.at + down.count; k += 1) await record(monitor, location, aResult('down', at(k)));
  await record(monitor, location, aResult('up', at(down.at + down.count)));
  await rollUpAgain(app, period);
}

const HOUR = 3_600_000;

/**
 * Hours inside the rolled-up stretch are read from the rollups only. Other tests on the shared
 * database may have rolled hours up already (their "now" moves forward), so results written into
 * the past afterwards are rolled up again here, as the hourly job would have had they come in time.
 */
async function rollUpAgain(app: RunningApplication, period: { from: Date; to: Date }): Promise<void> {
  const maintenance = app.container.get<ResultMaintenance>(RESULT_MAINTENANCE);
  await (async () => {
    const rolled = await maintenance.rolledUp();
    if (!rolled) return;
    const first = Math.floor(Math.max(period.from.getTime(), rolled.from.getTime()) / HOUR) * HOUR;
    const end = Math.min(period.to.getTime() + HOUR, rolled.to.getTime());
    for (let hour = first; hour < end; hour += HOUR) await maintenance.rollUpHour(new Date(hour), false);
  })();
}

/** The text of a PDF's pages (first to last, default all), as poppler's pdftotext reads it. */
export function pdfText(pdf: Uint8Array, pages: { first?: number; last?: number } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'report-pdf-'));
  try {
    writeFileSync(join(dir, 'r.pdf'), pdf);
    const range = [...(pages.first ? ['-f', String(pages.first)] : []), ...(pages.last ? ['-l', String(pages.last)] : [])];
    return execFileSync('pdftotext', ['-layout', ...range, join(dir, 'r.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first page rendered to PNG by poppler's pdftoppm (as a reader's viewer would draw it). */
export function firstPagePng(pdf: Uint8Array, dpi = 72): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'report-png-'));
  try {
    writeFileSync(join(dir, 'r.pdf'), pdf);
    execFileSync('pdftoppm', ['-png', '-r', String(dpi), '-f', '1', '-l', '1', '-singlefile', join(dir, 'r.pdf'), join(dir, 'page')]);
    return readFileSync(join(dir, 'page.png'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first page as pixels (pdftoppm's PPM output: P6, 8-bit RGB), to look at the drawing itself. */
export function firstPagePixels(pdf: Uint8Array, dpi = 72): { width: number; height: number; rgb: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'report-ppm-'));
  try {
    writeFileSync(join(dir, 'r.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', String(dpi), '-f', '1', '-l', '1', '-singlefile', join(dir, 'r.pdf'), join(dir, 'page')]);
    const ppm = readFileSync(join(dir, 'page.ppm'));
    const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'));
    if (!header) throw new Error('not a PPM');
    return { width: Number(header[1]), height: Number(header[2]), rgb: ppm.subarray(header[0].length) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How many pixels are close to a colour (each channel within 24). */
export function pixelsNear(image: { rgb: Buffer }, hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let n = 0;
  for (let i = 0; i + 2 < image.rgb.length; i += 3) {
    if (Math.abs(image.rgb[i]! - r!) <= 24 && Math.abs(image.rgb[i + 1]! - g!) <= 24 && Math.abs(image.rgb[i + 2]! - b!) <= 24) n += 1;
  }
  return n;
}

/** A solid-colour PNG (8-bit RGB), made by hand so tests need no image library. */
export function aSolidPng(width: number, height: number, hex: string): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])));
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const pixel = Buffer.from(hex.slice(1), 'hex');
  const row = Buffer.concat([Buffer.from([0]), ...Array.from({ length: width }, () => pixel)]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
