import { organizationScope } from '../../domain/shared/tenant-scope';
import { assertRoomForChangeRequest, ChangeRequest, type ChangeRequestAction } from '../../domain/monitoring/change-request';
import type { MonitorKind } from '../../domain/monitoring/monitor-kind';
import { assertMayWrite } from '../../domain/monitoring/ownership';
import { validationIssue } from '../../domain/monitoring/validation-issue';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import { assertAuthorizingUser, editorOf } from './monitor-editor';
import { loadMonitor } from './load-monitor';
import type { MonitorWriter } from './monitor-writer';
import type { AuthorizingUsers, ChangeRequestRepository, MonitorRepository, RecordRef } from './ports';

export interface FileChangeRequestInput {
  kind: MonitorKind;
  ref: RecordRef;
  action: ChangeRequestAction;
  changes?: Record<string, unknown>;
  note?: string | null;
}

/**
 * POST /api/websites/{id}/change-requests and /api/monitors/{type}/{id}/change-requests: a
 * proposal to change or delete a monitor, for the organization to settle. An update is checked
 * like the PATCH it stands for, so what gets approved can be applied; at most 10 are open per customer.
 */
export class FileChangeRequest {
  constructor(
    private readonly monitors: MonitorRepository,
    private readonly requests: ChangeRequestRepository,
    private readonly writer: MonitorWriter,
    private readonly users: AuthorizingUsers,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: FileChangeRequestInput): Promise<ChangeRequest> {
    await assertAuthorizingUser(actor, this.users);
    assertMayWrite(editorOf(actor));
    const monitor = await loadMonitor(this.monitors, actor.scope, input.kind, input.ref);
    const changes = input.action === 'update' ? (input.changes ?? {}) : {};
    if (input.action === 'update') {
      if (Object.keys(changes).length === 0) throw validationIssue('changes', 'An update request needs at least one change', 'too_small');
      await this.writer.validateUpdate(monitor, changes);
    }
    return this.tx.run(async (tx) => {
      const scope = organizationScope(monitor.organizationId);
      await this.monitors.lockCustomer(scope, monitor.customerId, tx);
      assertRoomForChangeRequest(await this.requests.countOpen(scope, monitor.customerId, tx));
      return this.requests.add(
        new ChangeRequest({
          publicId: this.ids.uuid(),
          organizationId: monitor.organizationId,
          customerId: monitor.customerId,
          monitorId: monitor.id,
          monitorPublicId: monitor.publicId,
          monitorKind: monitor.kind,
          action: input.action,
          changes,
          note: input.note ?? null,
          requestedByUserId: actor.userId,
          now: this.clock.now(),
        }),
        tx,
      );
    });
  }
}
