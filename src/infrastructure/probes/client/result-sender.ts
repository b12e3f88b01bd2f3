import type { Logger } from 'pino';
import type { WireProbeStatus } from '../../../application/probes/wire';
import type { ReceivedResults } from '../../../application/probes/receive-probe-results';
import { ProbeApiError, type ProbeApiClient } from './probe-api-client';
import type { DiskResultBuffer } from './disk-result-buffer';

/** Most results per request. */
const BATCH = 1_000;
/**
 * Results gather this long after a batch went before the next goes (a full batch goes at once):
 * fewer, larger batches cost the service less per result. With the worker recording every 500 ms,
 * a result waits at most about 1.5 s on the probe.
 */
export const SEND_EVERY_MS = 1_000;
/** Waits between attempts while the server cannot be reached: doubling from the first to the last. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 15_000;

export interface SenderEvents {
  /** The server answered that these workers are no longer alive. */
  fenced(workers: readonly string[]): void;
  /** What the probe reports about itself with each batch. */
  status(): WireProbeStatus;
}

/**
 * Sends the buffered results to the server, oldest first, one batch at a time (so the server
 * sees them in order and stores each once), as soon as results are written; while the server
 * cannot be reached it tries again, waiting longer each time, and the buffer holds what piles up.
 */
export class ResultSender {
  private wake: (() => void) | null = null;
  private stopped = false;
  private running: Promise<void> | null = null;
  private failingSince: number | null = null;
  private lastSentAt = 0;
  /** Totals of what the server answered, for the probe's progress log. */
  readonly totals = { sent: 0, recorded: 0, late: 0, duplicates: 0, refused: 0, tooOld: 0, tooNew: 0 };

  constructor(
    private readonly api: ProbeApiClient,
    private readonly buffer: DiskResultBuffer,
    private readonly events: SenderEvents,
    private readonly logger: Logger,
  ) {}

  /** Whether the last attempt reached the server. */
  get connected(): boolean {
    return this.failingSince === null;
  }

  start(): void {
    this.running ??= this.loop();
  }

  /** Results were written: send them now. */
  poke(): void {
    this.wake?.();
  }

  /** Sends what is buffered (trying for at most `withinMs`), then stops. */
  async stop(withinMs = 5_000): Promise<void> {
    const deadline = Date.now() + withinMs;
    while (this.buffer.pending > 0 && this.connected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    this.stopped = true;
    this.poke();
    await this.running;
  }

  private async loop(): Promise<void> {
    let retryMs = RETRY_FIRST_MS;
    while (!this.stopped) {
      await this.buffer.flushed();
      const batch = this.buffer.next(BATCH);
      const gathering = this.lastSentAt + SEND_EVERY_MS - Date.now();
      if (batch && batch.lines.length < BATCH && gathering > 0 && this.failingSince === null) {
        await this.pause(gathering);
        continue;
      }
      if (!batch) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, 1_000);
        });
        this.wake = null;
        continue;
      }
      try {
        this.lastSentAt = Date.now();
        const json = `{"status":${JSON.stringify(this.events.status())},"results":[${batch.lines.join(',')}]}`;
        const answer = await this.api.send<ReceivedResults>('/results', json);
        await this.buffer.acknowledge(answer.lastSeq);
        if (answer.fenced.length > 0) this.events.fenced(answer.fenced);
        this.count(batch.lines.length, answer);
        if (this.failingSince !== null) {
          this.logger.info({ downForMs: Date.now() - this.failingSince, buffered: this.buffer.pending }, 'probe server reachable again');
          this.failingSince = null;
        }
        retryMs = RETRY_FIRST_MS;
      } catch (error) {
        if (error instanceof ProbeApiError && error.status === 400) {
          // A batch the server refuses as malformed would be refused forever: drop it and say so.
          this.logger.error({ err: error, lastSeq: batch.lastSeq }, 'probe server refused a batch of results; dropped');
          await this.buffer.acknowledge(batch.lastSeq);
          continue;
        }
        if (this.failingSince === null) {
          this.failingSince = Date.now();
          this.logger.warn({ err: error }, 'probe server unreachable: buffering results');
        }
        await new Promise((resolve) => setTimeout(resolve, retryMs));
        retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
      }
    }
  }

  /** Waits `ms`, or less when stopping. */
  private async pause(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        if (!this.stopped) return;
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = null;
  }

  private count(sent: number, answer: ReceivedResults): void {
    this.totals.sent += sent;
    this.totals.recorded += answer.recorded;
    this.totals.late += answer.late;
    this.totals.duplicates += answer.duplicates;
    this.totals.refused += answer.refused;
    this.totals.tooOld += answer.tooOld;
    this.totals.tooNew += answer.tooNew;
  }
}
