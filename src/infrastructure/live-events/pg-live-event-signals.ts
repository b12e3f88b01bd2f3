import type { Logger } from 'pino';
import type { LiveEventSignals } from '../../application/live-events/ports';
import { listenToNotices } from '../persistence/pg-notices';

type Handlers = { grew(): void; lost(): void };

/**
 * `LISTEN live_events` on one connection per process, opened with the first stream: the triggers
 * send the organization's id with each commit that added events, whichever process made it.
 * A lost connection tells every stream to read (what was sent meanwhile is in the log).
 */
export class PgLiveEventSignals implements LiveEventSignals {
  private readonly byOrganization = new Map<number, Set<Handlers>>();
  private listening: Promise<() => Promise<void>> | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  async subscribe(organizationId: number, handlers: Handlers): Promise<() => void> {
    this.listening ??= listenToNotices(this.databaseUrl, 'live_events', 'live event', this.logger, {
      notice: (payload) => this.byOrganization.get(Number(payload))?.forEach((h) => h.grew()),
      lost: () => this.everyone((h) => h.lost()),
      resumed: () => this.everyone((h) => h.lost()),
    }).catch((error: unknown) => {
      this.listening = undefined;
      throw error;
    });
    await this.listening;
    const set = this.byOrganization.get(organizationId) ?? new Set<Handlers>();
    this.byOrganization.set(organizationId, set);
    set.add(handlers);
    return () => {
      set.delete(handlers);
      if (set.size === 0 && this.byOrganization.get(organizationId) === set) this.byOrganization.delete(organizationId);
    };
  }

  async close(): Promise<void> {
    const listening = this.listening;
    this.listening = undefined;
    if (listening) await (await listening.catch(() => async () => undefined))();
  }

  private everyone(call: (handlers: Handlers) => void): void {
    for (const set of this.byOrganization.values()) set.forEach(call);
  }
}
