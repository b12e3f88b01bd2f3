import type { DeliveryLedger, Settlement } from './ports';

/**
 * How long a finished attempt waits for others of its round before its batch is recorded, when
 * sends of the round are still under way (a slow receiver's): short beside a send, long beside
 * loopback answers, so a round of fast receivers is one statement and a slow one delays nobody else's.
 */
export const SETTLE_WINDOW_MS = 20;

/**
 * A round's settlements, recorded in batches as its sends finish (one statement per batch, never
 * one per delivery): a batch goes once every send of the round has finished, or `windowMs` after
 * its first settlement while others are still under way. Each `settle` resolves with whether its
 * delivery was settled (false: its lease had lapsed and another worker took it) once its batch is
 * recorded, or rejects with the batch's failure.
 */
export class SettleBatches {
  private waiting: Array<{ settlement: Settlement; done: (settled: boolean) => void; failed: (error: unknown) => void }> = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** `outstanding`: the sends of the round not finished yet (each ends with one `settle` or one `skip`). */
  constructor(
    private readonly ledger: Pick<DeliveryLedger, 'settleMany'>,
    private readonly owner: string,
    private outstanding: number,
    private readonly windowMs = SETTLE_WINDOW_MS,
  ) {}

  settle(settlement: Settlement): Promise<boolean> {
    const recorded = new Promise<boolean>((done, failed) => this.waiting.push({ settlement, done, failed }));
    this.finished();
    return recorded;
  }

  /** A send of the round that ends without a settlement (it failed before its attempt was made). */
  skip(): void {
    this.finished();
  }

  private finished(): void {
    this.outstanding--;
    if (this.outstanding <= 0) this.flush();
    else if (this.timer === null && this.waiting.length > 0) this.timer = setTimeout(() => this.flush(), this.windowMs);
  }

  private flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 0) return;
    this.ledger
      .settleMany(
        this.owner,
        batch.map((b) => b.settlement),
      )
      .then(
        (settled) => {
          for (const b of batch) b.done(settled.has(b.settlement.deliveryId));
        },
        (error: unknown) => {
          for (const b of batch) b.failed(error);
        },
      );
  }
}
