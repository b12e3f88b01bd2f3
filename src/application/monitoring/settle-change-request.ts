import { AppError } from '../../domain/shared/app-error';
import { organizationScope } from '../../domain/shared/tenant-scope';
import type { ChangeRequest, ChangeRequestDecision } from '../../domain/monitoring/change-request';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { Transaction, TransactionRunner } from '../shared/transaction';
import type { MonitorWriter } from './monitor-writer';
import type { ChangeRequestRepository, MonitorRepository, RecordRef } from './ports';

/**
 * PATCH /api/change-requests/{id}: the organization approves (the change is applied with the
 * approver's rights, atomically with the decision) or rejects (dropped); the customer side may
 * cancel its own open request. A request that fails validation when applied stays open.
 */
export class SettleChangeRequest {
  constructor(
    private readonly requests: ChangeRequestRepository,
    private readonly monitors: MonitorRepository,
    private readonly writer: MonitorWriter,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  execute(actor: Actor, input: { ref: RecordRef; status: ChangeRequestDecision; note?: string | null }): Promise<ChangeRequest> {
    requireAction(actor, input.status === 'cancelled' ? 'changeRequest.cancel' : 'changeRequest.settle');
    return this.tx.run(async (tx) => {
      const request = await this.requests.findByRefIn(actor.scope, input.ref, tx);
      if (!request) throw new AppError('changeRequestNotFound');
      if (!request.isOpen) throw new AppError('changeRequestAlreadySettled', { status: request.status });
      if (input.status === 'approved') await this.apply(actor, request, tx);
      request.settle(input.status, actor.userId, input.note ?? null, this.clock.now());
      await this.requests.save(request, tx);
      return request;
    });
  }

  private async apply(actor: Actor, request: ChangeRequest, tx: Transaction): Promise<void> {
    const monitor = await this.monitors.findByRefIn(
      organizationScope(request.organizationId),
      request.monitorKind,
      request.monitorPublicId,
      tx,
    );
    if (!monitor) throw new AppError(request.monitorKind === 'website' ? 'websiteNotFound' : 'monitorNotFound');
    if (request.action === 'delete') {
      await this.writer.remove(actor, monitor, tx);
      request.forgetMonitor();
    } else await this.writer.update(actor, monitor, request.changes, tx);
  }
}
