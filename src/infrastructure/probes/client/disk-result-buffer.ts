import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { appendFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** A segment: consecutive results, one JSON line each, the first numbered `firstSeq` (its file name). */
interface Segment {
  readonly firstSeq: number;
  readonly file: string;
  bytes: number;
  /** Lines of the segment being written (kept in memory, so reading never meets a half-written line). */
  lines: string[] | null;
  count: number;
}

export interface BufferedBatch {
  /** Results as written, each a JSON line (the compact wire form, its `seq` first). */
  readonly lines: readonly string[];
  readonly lastSeq: number;
}

export interface DiskResultBufferOptions {
  readonly dir: string;
  /** Most bytes kept: beyond it the oldest segments are dropped, their results counted in `dropped`. */
  readonly maxBytes: number;
  /** A segment is closed beyond this size. */
  readonly segmentBytes?: number;
}

const SEGMENT = /^(\d{16})\.jsonl$/;
const nameOf = (firstSeq: number) => `${String(firstSeq).padStart(16, '0')}.jsonl`;

/**
 * The probe's results on their way to the server, on disk: each result gets the next sequence
 * number and is appended to the current segment file; the server's answer (the highest sequence it
 * stored) lets whole segments go. While the server cannot be reached the probe keeps checking and
 * the segments pile up, up to `maxBytes`: then the oldest are dropped first, and counted. A probe
 * that restarts finds its segments and numbering again (a line cut short by a crash is ignored).
 */
export class DiskResultBuffer {
  private readonly segments: Segment[] = [];
  private nextSeq = 1;
  private ackedSeq = 0;
  private droppedCount = 0;
  /** When each append was made (its last sequence), oldest first, while it waits: the lag. */
  private readonly written: { lastSeq: number; at: number }[] = [];
  /** The closed segment read last (a batch at a time is sent from it). */
  private cache: { file: string; lines: string[] } | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly options: DiskResultBufferOptions) {
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(options.dir).sort()) {
      const match = SEGMENT.exec(name);
      if (!match) continue;
      const file = join(options.dir, name);
      const text = readFileSync(file, 'utf8');
      const count = text.split('\n').length - 1;
      const firstSeq = Number(match[1]);
      this.segments.push({ firstSeq, file, bytes: Buffer.byteLength(text), lines: null, count });
      this.nextSeq = Math.max(this.nextSeq, firstSeq + count);
      this.written.push({ lastSeq: firstSeq + count - 1, at: statSync(file).mtimeMs });
    }
  }

  /** Results dropped from a full buffer since the probe started. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Results waiting for the server. */
  get pending(): number {
    return Math.max(0, this.nextSeq - 1 - this.ackedSeq);
  }

  /** How long the oldest waiting result has waited (ms). */
  lagMs(now: number): number {
    const oldest = this.written[0];
    return oldest ? Math.max(0, Math.round(now - oldest.at)) : 0;
  }

  /**
   * Appends results (each made into its line with its sequence number by `line`), in one write.
   * Appends are serialized: lines are numbered in the order calls are made.
   */
  append(count: number, line: (seq: number, index: number) => string): Promise<void> {
    if (count === 0) return this.writing;
    const segment = this.current();
    const lines: string[] = [];
    for (let i = 0; i < count; i++) lines.push(line(this.nextSeq + i, i));
    this.nextSeq += count;
    const text = `${lines.join('\n')}\n`;
    segment.lines!.push(...lines);
    segment.count += count;
    this.written.push({ lastSeq: this.nextSeq - 1, at: Date.now() });
    segment.bytes += Buffer.byteLength(text);
    this.writing = this.writing.then(() => appendFile(segment.file, text, { mode: 0o600 }));
    this.trim();
    return this.writing;
  }

  /** Up to `max` of the oldest waiting results. */
  next(max: number): BufferedBatch | null {
    const lines: string[] = [];
    let lastSeq = this.ackedSeq;
    for (const segment of this.segments) {
      const end = segment.firstSeq + segment.count - 1;
      if (end <= lastSeq) continue;
      const all = segment.lines ?? this.read(segment);
      const from = Math.max(0, lastSeq + 1 - segment.firstSeq);
      const take = all.slice(from, from + (max - lines.length));
      lines.push(...take);
      lastSeq = segment.firstSeq + from + take.length - 1;
      if (lines.length >= max) break;
    }
    return lines.length === 0 ? null : { lines, lastSeq };
  }

  /** The server stored everything up to `seq`: whole segments up to there go. */
  async acknowledge(seq: number): Promise<void> {
    this.ackedSeq = Math.max(this.ackedSeq, seq);
    // A server that stored more than this probe remembers writing (a lost data directory) moves the numbering on.
    if (this.ackedSeq >= this.nextSeq) this.nextSeq = this.ackedSeq + 1;
    while (this.written.length > 0 && this.written[0]!.lastSeq <= this.ackedSeq) this.written.shift();
    await this.writing;
    while (this.segments.length > 0) {
      const first = this.segments[0]!;
      if (first.count === 0 || first.firstSeq + first.count - 1 > this.ackedSeq) break;
      this.segments.shift();
      if (this.cache?.file === first.file) this.cache = null;
      await rm(first.file, { force: true });
    }
  }

  /** Waits for the writes made so far. */
  flushed(): Promise<void> {
    return this.writing;
  }

  private read(segment: Segment): string[] {
    if (this.cache?.file !== segment.file) {
      this.cache = { file: segment.file, lines: readFileSync(segment.file, 'utf8').split('\n').slice(0, segment.count) };
    }
    return this.cache.lines;
  }

  private current(): Segment {
    const last = this.segments.at(-1);
    if (last && last.lines !== null && last.bytes < (this.options.segmentBytes ?? 4 * 1024 * 1024)) return last;
    if (last) last.lines = null;
    const segment: Segment = {
      firstSeq: this.nextSeq,
      file: join(this.options.dir, nameOf(this.nextSeq)),
      bytes: 0,
      lines: [],
      count: 0,
    };
    this.segments.push(segment);
    return segment;
  }

  /** Drops the oldest closed segments while the buffer is over its size. */
  private trim(): void {
    let total = this.segments.reduce((sum, s) => sum + s.bytes, 0);
    while (total > this.options.maxBytes && this.segments.length > 1) {
      const oldest = this.segments.shift()!;
      total -= oldest.bytes;
      const unacked = Math.max(0, oldest.firstSeq + oldest.count - 1 - Math.max(this.ackedSeq, oldest.firstSeq - 1));
      this.droppedCount += unacked;
      this.ackedSeq = Math.max(this.ackedSeq, oldest.firstSeq + oldest.count - 1);
      while (this.written.length > 0 && this.written[0]!.lastSeq <= this.ackedSeq) this.written.shift();
      this.writing = this.writing.then(() => rm(oldest.file, { force: true }));
    }
  }
}
