import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { DiskResultBuffer } from '../../../../src/infrastructure/probes/client/disk-result-buffer';
import type { ProbeApiClient } from '../../../../src/infrastructure/probes/client/probe-api-client';
import { ResultSender, SEND_EVERY_MS } from '../../../../src/infrastructure/probes/client/result-sender';
import { waitFor } from '../../../support/wait-for';

const STATUS = { monitorsHeld: 1, checksPerSecond: 1, lagMs: 0, buffered: 0, dropped: 0 };

/** The server's results call as the probe sees it: each batch's sequences and when it came. */
class RecordingApi {
  readonly batches: { seqs: number[]; at: number }[] = [];
  async send<T>(_path: string, json: string): Promise<T> {
    const seqs = (JSON.parse(json) as { results: [number][] }).results.map((r) => r[0]);
    this.batches.push({ seqs, at: Date.now() });
    return { lastSeq: seqs.at(-1), recorded: seqs.length, late: 0, duplicates: 0, refused: 0, tooOld: 0, fenced: [] } as T;
  }
}

describe('ResultSender (a probe reporting its buffer)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'probe-sender-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  /** A sender running on a buffer in `dir`, reporting to a recording server. */
  const started = () => {
    const buffer = new DiskResultBuffer({ dir, maxBytes: 1e9 });
    const api = new RecordingApi();
    const events = { fenced: () => undefined, status: () => STATUS };
    const sender = new ResultSender(api as unknown as ProbeApiClient, buffer, events, pino({ level: 'silent' }));
    sender.start();
    return { buffer, api, sender };
  };

  it('sends the first results at once, then gathers what follows for a second into one batch', async () => {
    const { buffer, api, sender } = started();
    const line = (seq: number) => JSON.stringify([seq]);
    await buffer.append(2, line);
    sender.poke();
    await waitFor(() => api.batches.length === 1, { what: 'the first batch' });
    for (let i = 0; i < 3; i++) {
      await buffer.append(1, line);
      sender.poke();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await waitFor(() => api.batches.length === 2, { what: 'the second batch', timeoutMs: 3 * SEND_EVERY_MS });
    await sender.stop();
    expect(api.batches.map((b) => b.seqs)).to.deep.equal([
      [1, 2],
      [3, 4, 5],
    ]);
    expect(api.batches[1]!.at - api.batches[0]!.at, 'a second after the first').to.be.at.least(SEND_EVERY_MS - 20);
    expect(buffer.pending).to.equal(0);
  });

  it('sends a full batch without waiting', async () => {
    const { buffer, api, sender } = started();
    await buffer.append(1, (seq) => JSON.stringify([seq]));
    sender.poke();
    await waitFor(() => api.batches.length === 1, { what: 'the first batch' });
    await buffer.append(2_500, (seq) => JSON.stringify([seq]));
    sender.poke();
    await waitFor(() => api.batches.length === 3, { what: 'two full batches', timeoutMs: SEND_EVERY_MS / 2 });
    expect(api.batches.slice(1).map((b) => b.seqs.length)).to.deep.equal([1_000, 1_000]);
    await sender.stop();
  });
});
