/**
 * The deliveries this process is sending now (channel deliveries and direct messages alike: one
 * set, shared by the process's deliverers). The worker lets a round start beside one still waiting
 * on slow receivers, and a send may outlast its lease (under load, or with a short
 * `NOTIFY_LEASE_MS`). A round's claim must not take such a delivery: sent again, its receivers
 * would get it twice; leased anew (each round leases under a name of its own), the send in flight
 * could no longer record its attempt, and the delivery would be sent again once that lease lapsed.
 * So claims leave these ids alone, and so does the soonest-due reading (a lapsed lease of a send in
 * flight is no work to wake for: its end records it). A delivery counts as sent until its attempt is recorded.
 */
export class SendingNow {
  /** Each delivery being sent, with when the lease it was claimed under ends (ms). */
  private readonly sending = new Map<string, number>();

  /**
   * The ids being sent here whose lease has ended by `now`, for a claim or a due reading to leave
   * alone (usually none: the others' leases keep every claim off them already).
   */
  lapsed(now: Date): string[] {
    const ids: string[] = [];
    for (const [id, until] of this.sending) if (until <= now.getTime()) ids.push(id);
    return ids;
  }

  has(id: string): boolean {
    return this.sending.has(id);
  }

  /**
   * Runs a claim taken at `now` under a `leaseMs` lease, told which sends in flight here it must
   * leave alone, and answers what it claimed that is not already being sent here (a claim that raced
   * a send), each marked as being sent until that lease ends.
   */
  async claim<T extends { readonly id: string }>(
    now: Date,
    leaseMs: number,
    claim: (sendingHere: readonly string[]) => Promise<readonly T[]>,
  ): Promise<T[]> {
    const claimed = await claim(this.lapsed(now));
    const taken = claimed.filter((delivery) => !this.sending.has(delivery.id));
    for (const delivery of taken) this.sending.set(delivery.id, now.getTime() + leaseMs);
    return taken;
  }

  /** Runs a delivery's send and record, marking it no longer sent when they end, however they end. */
  async around<R>(id: string, work: () => Promise<R>): Promise<R> {
    try {
      return await work();
    } finally {
      this.sending.delete(id);
    }
  }
}
