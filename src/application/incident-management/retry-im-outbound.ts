import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { RateLimitRule, RateLimiter } from '../shared/rate-limiter';
import type { ImOutboundDeliveries, ImOutboundDelivery } from './ports';

/**
 * Limits: 10 manual retries per minute per integration. An integration is the organization's
 * outbound kind a page travels by (e-mail, SMS, webhook): IM has no finer outbound integration
 * objects, so the key is organization and kind.
 */
export const IM_OUTBOUND_RETRY_RATE: RateLimitRule = { name: 'im-outbound-retry', limit: 10, windowSeconds: 60 };

/**
 * POST /api/im/outbound/{id}/retry: sends a failed IM page again through the delivery ledger (the
 * worker picks it up at once; one more attempt, the earlier ones stay in its history). Only retries
 * that would re-queue something count against the limit.
 */
export class RetryImOutbound {
  constructor(
    private readonly outbound: ImOutboundDeliveries,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
    private readonly rule: RateLimitRule = IM_OUTBOUND_RETRY_RATE,
  ) {}

  async execute(actor: Actor, id: string): Promise<ImOutboundDelivery> {
    const organizationId = actor.scope.organizationId;
    const delivery = await this.outbound.find(organizationId, id);
    if (!delivery) throw new AppError('imOutboundNotFound');
    if (delivery.status !== 'failed') throw new AppError('imOutboundNotFailed', { status: delivery.status });
    const decision = await this.limiter.hit(this.rule, `${organizationId}:${delivery.integration}`);
    if (!decision.allowed)
      throw new AppError('imOutboundRetryRateLimited', { retryAfter: decision.retryAfterSeconds, integration: delivery.integration });
    if (!(await this.tx.run((tx) => this.outbound.requeue(organizationId, id, this.clock.now(), tx)))) {
      throw new AppError('imOutboundNotFailed', { status: (await this.outbound.find(organizationId, id))?.status ?? 'pending' });
    }
    return { ...delivery, status: 'pending' };
  }
}
