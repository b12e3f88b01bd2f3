import { token } from '../shared/token';
/** Reports whether the database answers, and how fast. */
export interface DatabaseProbe {
  ping(): Promise<void>;
}
export const DATABASE_PROBE = token<DatabaseProbe>('DatabaseProbe');

export interface Health {
  status: 'ok' | 'degraded';
  database: { reachable: boolean; latencyMs: number | null };
}

export class CheckHealth {
  constructor(
    private readonly database: DatabaseProbe,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async execute(): Promise<Health> {
    const started = this.now();
    try {
      await this.database.ping();
      return { status: 'ok', database: { reachable: true, latencyMs: Math.round((this.now() - started) * 10) / 10 } };
    } catch {
      return { status: 'degraded', database: { reachable: false, latencyMs: null } };
    }
  }
}
