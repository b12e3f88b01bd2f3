/**
 * The deliveries this process is sending now. The worker lets a round start beside one still
 * waiting on slow receivers, and that round's claim takes any delivery whose lease lapsed, the
 * ones this process still sends included (a send outlasting the lease, under load or with a short
 * `NOTIFY_LEASE_MS`): sent again, their receivers would get them twice. Such a claim is left to the
 * send in flight, whose record settles it; a delivery counts as sent until its attempt is recorded.
 */
export class SendingNow {
  private readonly ids = new Set<string>();

  /** The claimed deliveries not already being sent here, each marked as being sent. */
  take<T extends { readonly id: string }>(claimed: readonly T[]): T[] {
    const taken = claimed.filter((delivery) => !this.ids.has(delivery.id));
    for (const delivery of taken) this.ids.add(delivery.id);
    return taken;
  }

  /** Runs a delivery's send and record, marking it no longer sent when they end, however they end. */
  async around<R>(id: string, work: () => Promise<R>): Promise<R> {
    try {
      return await work();
    } finally {
      this.ids.delete(id);
    }
  }
}
