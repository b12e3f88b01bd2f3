import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { Clock } from '../shared/clock';
import type { MonitorRepository } from './ports';

/** A ping to a heartbeat monitor's URL; unknown tokens answer websiteNotFound. */
export class RecordHeartbeat {
  constructor(
    private readonly monitors: MonitorRepository,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute({ token }: { token: string }): Promise<{ receivedAt: Date }> {
    const receivedAt = this.clock.now();
    if (!/^hb_[\w-]{20,64}$/.test(token) || !(await this.tx.run((tx) => this.monitors.recordHeartbeat(token, receivedAt, tx)))) {
      throw new AppError('websiteNotFound');
    }
    return { receivedAt };
  }
}
