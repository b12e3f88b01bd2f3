import { AppError } from '../../domain/shared/app-error';
import { parseDateRange, type DateRange } from '../../domain/results/date-range';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { MonitorLookup, ResultStore, StoredResult } from './ports';

export interface CheckHistoryInput {
  /** The website's publicId or legacy integer id. */
  websiteId: string;
  /** Named by the per-kind paths: only a monitor of this kind is found (else monitorNotFound). */
  kind?: string;
  /** ISO 8601; default: `to` minus 24 hours. */
  from?: string;
  /** ISO 8601; default: now. */
  to?: string;
  location?: string;
  page: number;
  perPage: number;
}

const DAY_MS = 24 * 60 * 60_000;

/** A website's stored results, newest first, per location. */
export class GetCheckHistory {
  constructor(
    private readonly monitors: MonitorLookup,
    private readonly results: ResultStore,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: CheckHistoryInput): Promise<{ items: StoredResult[]; total: number; range: DateRange }> {
    const range = parseDateRange(input, { now: this.clock.now(), spanMs: DAY_MS });
    const monitor = await this.monitors.resolve(actor.scope, input.websiteId, input.kind);
    if (!monitor) throw new AppError(input.kind ? 'monitorNotFound' : 'websiteNotFound');
    const page = await this.results.history(monitor.monitorId, {
      range,
      location: input.location ?? null,
      page: input.page,
      perPage: input.perPage,
    });
    return { ...page, range };
  }
}
