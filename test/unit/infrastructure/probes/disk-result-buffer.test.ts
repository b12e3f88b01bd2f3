import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DiskResultBuffer } from '../../../../src/infrastructure/probes/client/disk-result-buffer';

const line = (seq: number) => JSON.stringify({ seq, pad: 'x'.repeat(80) });

describe('DiskResultBuffer (a probe result buffer)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'probe-buffer-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('numbers results in order and hands out the oldest first, a batch at a time', async () => {
    const buffer = new DiskResultBuffer({ dir, maxBytes: 1e9 });
    await buffer.append(3, (seq) => line(seq));
    await buffer.append(2, (seq) => line(seq));
    const batch = buffer.next(4)!;
    expect(batch.lastSeq).to.equal(4);
    expect(batch.lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).to.deep.equal([1, 2, 3, 4]);
    expect(buffer.pending).to.equal(5);
  });

  it('lets acknowledged results go and removes segment files the server stored whole', async () => {
    const buffer = new DiskResultBuffer({ dir, maxBytes: 1e9, segmentBytes: 300 });
    for (let i = 0; i < 6; i++) await buffer.append(2, (seq) => line(seq));
    const before = readdirSync(dir).length;
    await buffer.acknowledge(8);
    expect(buffer.pending).to.equal(4);
    expect(buffer.next(10)!.lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).to.deep.equal([9, 10, 11, 12]);
    expect(readdirSync(dir).length).to.be.below(before);
  });

  it('finds its results and numbering again after a restart, ignoring a line cut short by a crash', async () => {
    const first = new DiskResultBuffer({ dir, maxBytes: 1e9 });
    await first.append(3, (seq) => line(seq));
    appendFileSync(path.join(dir, readdirSync(dir)[0]!), '{"seq":4,"cut');
    const again = new DiskResultBuffer({ dir, maxBytes: 1e9 });
    expect(again.pending).to.equal(3);
    await again.acknowledge(1);
    expect(again.next(10)!.lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).to.deep.equal([2, 3]);
    await again.append(1, (seq) => line(seq));
    expect(again.next(10)!.lastSeq).to.equal(4);
  });

  it('drops the oldest results first when full, and counts them', async () => {
    const buffer = new DiskResultBuffer({ dir, maxBytes: 1_000, segmentBytes: 300 });
    for (let i = 0; i < 10; i++) await buffer.append(2, (seq) => line(seq));
    expect(buffer.dropped).to.be.above(0);
    const batch = buffer.next(100)!;
    const seqs = batch.lines.map((l) => (JSON.parse(l) as { seq: number }).seq);
    expect(seqs[0]).to.equal(buffer.dropped + 1);
    expect(seqs.at(-1)).to.equal(20);
    expect(buffer.pending).to.equal(20 - buffer.dropped);
  });

  it('reports as lag how long the oldest waiting result has waited', async () => {
    const buffer = new DiskResultBuffer({ dir, maxBytes: 1e9 });
    expect(buffer.lagMs(Date.now())).to.equal(0);
    await buffer.append(1, (seq) => line(seq));
    expect(buffer.lagMs(Date.now() + 5_000)).to.be.within(4_900, 5_100);
    await buffer.acknowledge(1);
    expect(buffer.lagMs(Date.now() + 5_000)).to.equal(0);
  });
});
